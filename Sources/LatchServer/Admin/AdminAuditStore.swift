import FluentKit
import Foundation

/// The statements on `admin_audit_log` (issue 44 §1): an entry written, and the log read newest first.
/// Which calls are audited, with what result, is `AdminService`'s (and the admin key check's) to say.
struct AdminAuditStore: Sendable {
    /// Writes `entry` (its id is assigned by the database).
    func append(_ entry: AdminAuditEntry, on database: any Database) async throws {
        try await entry.create(on: database)
    }

    /// At most `limit` entries, newest first, only those older than entry `before` when given.
    func entries(before: Int?, limit: Int, on database: any Database) async throws -> [AdminAuditEntry] {
        var query = AdminAuditEntry.query(on: database).sort(\.$id, .descending).limit(limit)
        if let before { query = query.filter(\.$id < before) }
        return try await query.all()
    }
}
