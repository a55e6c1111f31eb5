import FluentKit

/// Issue 41 P3: who started a new-value lock and whether the value earned trust.
///
/// - `policy_value_locks.session_id`: the session whose request first named the value (its lock).
/// - `.trusted_at`, `.trusted_session_id`: when a proof naming the value was first redeemed after its lock,
///   and the session that passed that verification. A value whose lock ran out unused is not trusted: a
///   security reset ends it, with every trust started by a session the reset ends. Rows from before this
///   migration are untrusted, so the next reset of their account locks them again.
struct AddValueLockTrust: AsyncMigration {
    static let columns: [Database.AddedColumn] = [
        (PolicyValueLocks.schema, "session_id", .uuid), (PolicyValueLocks.schema, "trusted_at", .double),
        (PolicyValueLocks.schema, "trusted_session_id", .uuid)
    ]

    func prepare(on database: any Database) async throws { try await database.addColumns(Self.columns) }

    func revert(on database: any Database) async throws { try await database.dropColumns(Self.columns) }
}
