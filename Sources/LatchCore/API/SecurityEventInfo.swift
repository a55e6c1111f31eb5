import Foundation

/// One entry of the user's security log (`GET /v1/security-events`).
public struct SecurityEventInfo: Codable, Sendable, Equatable {
    public var id: String
    /// What happened: `signed_in`, `sign_in_failed`, `locked`, `password_reset`, `session_revoked`, …
    public var type: String
    public var sessionId: String?
    public var ip: String?
    public var createdAt: Date

    /// `type` in the shared vocabulary; `nil` for a kind newer than this library.
    public var kind: SecurityEventKind? { SecurityEventKind(rawValue: type) }

    public init(id: String, type: String, sessionId: String?, ip: String?, createdAt: Date) {
        self.id = id
        self.type = type
        self.sessionId = sessionId
        self.ip = ip
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, type, ip
        case sessionId = "session_id"
        case createdAt = "created_at"
    }
}
