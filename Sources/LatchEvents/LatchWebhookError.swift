/// Why `LatchWebhook` refused a delivery. Answer any of them with 401 (or 400) and do not act on the body:
/// latchd retries, and a delivery that keeps failing is marked `failed` for an operator to replay.
public enum LatchWebhookError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The secret is not `whsec_` and the base64 of 24 to 64 bytes.
    case invalidSecret
    /// A header the Standard Webhooks specification requires is missing (`webhook-id`,
    /// `webhook-timestamp` or `webhook-signature`).
    case missingHeader(String)
    /// `webhook-timestamp` is not a number of seconds since 1970.
    case invalidTimestamp(String)
    /// `webhook-timestamp` is more than the tolerance (5 minutes) in the past: an old delivery replayed.
    case timestampTooOld
    /// `webhook-timestamp` is more than the tolerance in the future: a clock is wrong.
    case timestampTooNew
    /// No `v1,` signature in `webhook-signature` is this body's by this secret: a forged or altered
    /// delivery, or the wrong secret (during a rotation, keep the old secret until the new one verifies).
    case noMatchingSignature
    /// The signature verified but the body is not a Latch event (a newer, incompatible body).
    case invalidPayload(String)

    /// A stable code for logs and metrics: `invalid_secret`, `missing_header`, `invalid_timestamp`,
    /// `timestamp_too_old`, `timestamp_too_new`, `no_matching_signature`, `invalid_payload`.
    public var code: String {
        switch self {
        case .invalidSecret: "invalid_secret"
        case .missingHeader: "missing_header"
        case .invalidTimestamp: "invalid_timestamp"
        case .timestampTooOld: "timestamp_too_old"
        case .timestampTooNew: "timestamp_too_new"
        case .noMatchingSignature: "no_matching_signature"
        case .invalidPayload: "invalid_payload"
        }
    }

    /// What went wrong, for a person.
    public var reason: String {
        switch self {
        case .invalidSecret: "the secret is not whsec_ and base64 of 24 to 64 bytes"
        case .missingHeader(let name): "the \(name) header is missing"
        case .invalidTimestamp(let value): "webhook-timestamp \(value) is not epoch seconds"
        case .timestampTooOld: "webhook-timestamp is more than 5 minutes old"
        case .timestampTooNew: "webhook-timestamp is more than 5 minutes in the future"
        case .noMatchingSignature: "no signature matches this body and secret"
        case .invalidPayload(let detail): "the body is not a Latch event: \(detail)"
        }
    }

    public var description: String { "\(code): \(reason)" }
}
