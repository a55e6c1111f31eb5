import FluentKit
import SQLKit

/// `notice_digests` (issue 20 §2): one row per security change folded into the next digest mail — the
/// account, the address the notice goes to, its kind, the mail's language and the change's time.
struct CreateNoticeDigests: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(NoticeDigests.table)
            .id()
            .field("user_id", .uuid, .required)
            .field("address", .string, .required)
            .field("kind", .string, .required)
            .field("language", .string, .required)
            .field("created_at", .double, .required)
            .create()
        try await database.sql.raw(
            "CREATE INDEX notice_digests_user_id ON notice_digests (user_id, created_at)"
        ).run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(NoticeDigests.table).delete()
    }
}
