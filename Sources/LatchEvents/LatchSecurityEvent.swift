import Foundation

/// One Security Event Token from a Latch Shared Signals stream (SSF 1.0, RFC 8417), once verified by
/// `LatchSecurityEventVerifier`: one CAEP or RISC event about one subject.
public struct LatchSecurityEvent: Sendable, Hashable {
    /// `jti`: the outbound event's id (`evt_…`), the same on every delivery: drop duplicates by it.
    public let id: String
    /// `iss`: latchd's issuer (`LATCH_ISSUER`).
    public let issuer: String
    /// `aud`: the stream's audience (one or more).
    public let audience: [String]
    /// `iat`: when the SET was made.
    public let issuedAt: Date
    /// `toe`: when the change happened.
    public let timeOfEvent: Date?
    /// `txn`: the change's transaction (`txn_…`), shared by the SETs of one change.
    public let transaction: String?
    /// `sub_id` (RFC 9493): `{"format": "iss_sub", "iss", "sub"}` for an account, `{"format": "opaque", "id"}`
    /// for the stream itself (a verification event).
    public let subject: [String: JSONValue]
    /// `events`: the event type's URI (`https://schemas.openid.net/secevent/risc/event-type/account-disabled`)
    /// and its claims.
    public let events: [String: [String: JSONValue]]

    /// The account's id when the subject is one (`sub_id.sub` of an `iss_sub` subject).
    public var userID: String? {
        subject["format"]?.stringValue == "iss_sub" ? subject["sub"]?.stringValue : nil
    }
}
