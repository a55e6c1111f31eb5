import Foundation

/// One entry of the user's security log (`GET /v1/security-events`).
public struct SecurityEventInfo: Codable, Sendable, Equatable {
    public var id: String
    /// What happened: `signed_in`, `sign_in_failed`, `locked`, `password_reset`, `session_revoked`, …
    public var type: String
    public var sessionId: String?
    public var ip: String?
    public var createdAt: Date
    /// How many events of this kind this entry stands for (failures are aggregated per target and window,
    /// issue 20 §5); `nil` or 1 for a single event.
    public var count: Int?
    /// Who acted, where it matters (issue 19 §3): `owner`, `freeze_link`, `operator`; `nil` otherwise.
    public var actor: String?
    /// More about the event where it has more (e.g. the hold reason, what a security reset ended).
    public var detail: String?

    /// `type` in the shared vocabulary; `nil` for a kind newer than this library.
    public var kind: SecurityEventKind? { SecurityEventKind(rawValue: type) }

    public init(
        id: String, type: String, sessionId: String?, ip: String?, createdAt: Date, count: Int? = nil,
        actor: String? = nil, detail: String? = nil
    ) {
        self.id = id
        self.type = type
        self.sessionId = sessionId
        self.ip = ip
        self.createdAt = createdAt
        self.count = count
        self.actor = actor
        self.detail = detail
    }

    enum CodingKeys: String, CodingKey {
        case id, type, ip, count, actor, detail
        case sessionId = "session_id"
        case createdAt = "created_at"
    }
}
