import FluentKit
import Foundation
import LatchCore

/// One entry of a user's security log. Failures for unknown accounts are logged with no user.
// Fluent model (see User for why @unchecked Sendable).
final class SecurityEvent: Model, @unchecked Sendable {
    static let schema = "security_events"

    /// What happened (the shared vocabulary, `SecurityEventKind` in LatchCore).
    typealias Kind = SecurityEventKind

    @ID(key: .id) var id: UUID?
    @OptionalField(key: "user_id") var userID: UUID?
    @Field(key: "type") var type: String
    @OptionalField(key: "session_id") var sessionID: UUID?
    @OptionalField(key: "ip") var ip: String?
    @Field(key: "created_at") var createdAt: Double
    /// How many failures an aggregated row stands for (issue 20 §5); nil for a single event.
    @OptionalField(key: "count") var count: Int?
    /// Who acted, where it matters (issue 19): `owner`, `freeze_link`, `operator`.
    @OptionalField(key: "actor") var actor: String?
    /// More about the event (issue 19): a hold's reason, what a security reset ended.
    @OptionalField(key: "detail") var detail: String?

    init() {}

    var info: SecurityEventInfo {
        SecurityEventInfo(
            id: id?.uuidString.lowercased() ?? "", type: type, sessionId: sessionID?.uuidString.lowercased(), ip: ip,
            createdAt: Date(timeIntervalSince1970: createdAt), count: count, actor: actor, detail: detail)
    }
}

struct CreateSecurityEvents: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SecurityEvent.schema)
            .id()
            .field("user_id", .uuid)
            .field("type", .string, .required)
            .field("session_id", .uuid)
            .field("ip", .string)
            .field("created_at", .double, .required)
            .create()
        try await database.createIndex(
            "security_events_user_id", on: SecurityEvent.schema, columns: "user_id", "created_at")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SecurityEvent.schema).delete()
    }
}
