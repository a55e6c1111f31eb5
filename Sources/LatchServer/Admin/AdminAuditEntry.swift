import FluentKit
import Foundation

/// One admin call (issue 12 §2): who (`actor`), what (`action`, and `detail`: what it was asked, e.g.
/// the search text of `find_users`), on whom, from where, when, and how it ended (`result`: `ok` or
/// the error code it answered). Written for every authenticated call, in the action's own
/// transaction, also for failed actions; failed admin authentications are written too (action
/// `authenticate`, a limited number of rows, issue 20 §6).
// Fluent model (see User for why @unchecked Sendable).
final class AdminAuditEntry: Model, @unchecked Sendable {
    static let schema = "admin_audit_log"

    /// Assigned by the database in insertion order: the cursor of `GET /v1/admin/audit`.
    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "actor") var actor: String
    @Field(key: "action") var action: String
    @OptionalField(key: "target_user_id") var targetUserID: UUID?
    @OptionalField(key: "ip") var ip: String?
    @Field(key: "at") var at: Double
    @Field(key: "result") var result: String
    @OptionalField(key: "detail") var detail: String?

    init() {}

    init(
        actor: AdminActor, action: String, target: UUID?, ip: String?, at: Double, result: String,
        detail: String? = nil
    ) {
        self.actor = actor.auditName
        self.action = action
        self.targetUserID = target
        self.ip = ip
        self.at = at
        self.result = result
        self.detail = detail
    }

    var info: AdminAuditRecord {
        AdminAuditRecord(
            id: id ?? 0, actor: actor, action: action, targetUserId: targetUserID?.uuidString.lowercased(), ip: ip,
            at: Date(timeIntervalSince1970: at), result: result, detail: detail)
    }
}

/// An audit entry as `GET /v1/admin/audit` lists it.
public struct AdminAuditRecord: Codable, Sendable, Equatable {
    public var id: Int
    /// `key:{fingerprint}` or `console`.
    public var actor: String
    public var action: String
    public var targetUserId: String?
    public var ip: String?
    public var at: Date
    /// `ok`, or the error code the call answered (`NOT_FOUND`, …).
    public var result: String
    /// What the call was asked, when that is more than its target: `find_users`' search text
    /// (`q=…`); null otherwise.
    public var detail: String?

    enum CodingKeys: String, CodingKey {
        case id, actor, action, ip, at, result, detail
        case targetUserId = "target_user_id"
    }

    /// Every field is always there (`target_user_id`, `ip` and `detail` null when there is none).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(actor, forKey: .actor)
        try container.encode(action, forKey: .action)
        try container.encode(targetUserId, forKey: .targetUserId)
        try container.encode(ip, forKey: .ip)
        try container.encode(at, forKey: .at)
        try container.encode(result, forKey: .result)
        try container.encode(detail, forKey: .detail)
    }
}

/// One page of the audit log, newest first; `next_cursor` asks for older entries (null: no more).
public struct AdminAuditPage: Codable, Sendable, Equatable {
    public var entries: [AdminAuditRecord]
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case entries
        case nextCursor = "next_cursor"
    }

    /// `next_cursor` is always there: null on the last page.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .entries)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

struct CreateAdminAuditLog: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AdminAuditEntry.schema)
            .field("id", .int, .identifier(auto: true))
            .field("actor", .string, .required)
            .field("action", .string, .required)
            .field("target_user_id", .uuid)
            .field("ip", .string)
            .field("at", .double, .required)
            .field("result", .string, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AdminAuditEntry.schema).delete()
    }
}

/// The audit log's `detail` column (issue 20 §6: what `find_users` searched for).
struct AddAdminAuditDetail: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AdminAuditEntry.schema).field("detail", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AdminAuditEntry.schema).deleteField("detail").update()
    }
}
