import Foundation
import LatchCore

/// One place the app's backend hears outbound events (issue 42 §3): a webhook (Standard Webhooks), or a
/// Shared Signals stream whose SETs latchd pushes (RFC 8935) or the receiver polls (RFC 8936).
///
/// Secrets are not part of the value: a webhook's signing secrets and an SSF push stream's
/// `Authorization` header are sealed in the store and opened only to deliver.
struct EventStream: Sendable, Equatable {
    /// `es_` and 24 hex digits.
    let id: String
    let kind: Kind
    /// Where deliveries are POSTed; nil for a poll stream.
    let url: String?
    let types: EventTypeFilter
    /// The SETs' `aud` (SSF streams).
    let audience: String?
    let status: Status
    let description: String?
    /// The SSF receiver that made the stream, by its key's id; nil for an operator's stream.
    let receiver: String?
    let createdAt: Double

    enum Kind: String, Sendable, Equatable, CaseIterable, Codable {
        /// A Standard Webhooks POST of `{"type","timestamp","data"}`, HMAC-signed.
        case webhook
        /// SSF push (RFC 8935): a POST of one SET, `application/secevent+jwt`.
        case ssfPush = "ssf_push"
        /// SSF poll (RFC 8936): the receiver asks, and acknowledges.
        case ssfPoll = "ssf_poll"

        /// Whether latchd sends (push) rather than waits to be asked (poll).
        var pushes: Bool { self != .ssfPoll }
        /// Whether events travel as SETs (a Shared Signals stream).
        var sharedSignals: Bool { self != .webhook }
    }

    /// SSF 1.0 §8.1.2's stream status; a webhook stream is `enabled` or `paused`.
    enum Status: String, Sendable, Equatable, Codable {
        /// Events are queued and delivered.
        case enabled
        /// Events are queued and held until the stream is enabled again.
        case paused
        /// Events are not queued (SSF `disabled`: the receiver hears nothing until it enables the stream).
        case disabled
    }

    /// A new stream id.
    static func newID() -> String { "es_" + Hex.lowercase(RandomSecrets.bytes(12)) }
}
