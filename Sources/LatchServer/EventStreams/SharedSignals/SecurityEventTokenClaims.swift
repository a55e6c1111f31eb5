import JWTKit

/// The claims of a Security Event Token (RFC 8417, as SSF 1.0 profiles it): `iss`, `aud` (the stream's
/// audience), `jti` (the event's `evt_…`, the same on every delivery), `iat`, `toe` (when the change
/// happened), `txn` (the change's transaction), `sub_id` (RFC 9493) and one event in `events`.
struct SecurityEventTokenClaims: JWTPayload, Equatable {
    var iss: String
    var aud: String
    var jti: String
    var iat: Int
    var toe: Int?
    var txn: String?
    var subId: SubjectIdentifier
    var events: [String: [String: EventValue]]

    enum CodingKeys: String, CodingKey {
        case iss, aud, jti, iat, toe, txn, events
        case subId = "sub_id"
    }

    /// The signature is jwt-kit's to check; a SET has no expiry.
    func verify(using _: some JWTAlgorithm) async throws {}
}

/// A subject identifier (RFC 9493): the account as `iss_sub` (latchd's issuer and the user id), or a
/// stream as `opaque` (SSF 1.0's verification event).
struct SubjectIdentifier: Codable, Sendable, Equatable {
    var format: String
    var iss: String?
    var sub: String?
    var id: String?

    static func account(issuer: String, user: String) -> SubjectIdentifier {
        SubjectIdentifier(format: "iss_sub", iss: issuer, sub: user, id: nil)
    }

    static func opaque(_ id: String) -> SubjectIdentifier {
        SubjectIdentifier(format: "opaque", iss: nil, sub: nil, id: id)
    }
}
