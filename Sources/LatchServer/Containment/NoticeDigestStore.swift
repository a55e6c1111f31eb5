import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The statements on `notice_digests` (issue 44 §1): a folded notice's row written, the accounts with
/// rows due, and a flush's claim of an account's rows. When a notice is folded and when a digest is
/// mailed is `NoticeDigests`'.
struct NoticeDigestStore: Sendable {
    /// A folded notice as its row holds it.
    struct Row: Sendable {
        let address: String
        /// Nil when the row names a kind this version does not know.
        let notice: SecurityNotice?
        /// Nil when the row names a language this version does not know.
        let language: LatchLanguage?
        let createdAt: Double
    }

    /// Writes the row of `notice` to `address` for `user`, in `language`, at `now`.
    func insert(
        _ notice: SecurityNotice, language: LatchLanguage, to address: String, user: UUID, now: Double,
        on database: any Database
    ) async throws {
        try await database.sql.raw(
            """
            INSERT INTO notice_digests (id, user_id, address, kind, language, created_at)
            VALUES (\(bind: UUID()), \(bind: user), \(bind: address), \(bind: notice.rawValue), \(bind: language.rawValue), \(bind: now))
            """
        ).run()
    }

    /// At most 100 accounts that have rows written up to `now`.
    func usersDue(now: Double, on database: any Database) async throws -> [UUID] {
        try await database.sql.raw(
            "SELECT DISTINCT user_id FROM notice_digests WHERE created_at <= \(bind: now) LIMIT 100"
        ).all().map { try $0.decode(column: "user_id", as: UUID.self) }
    }

    /// Deletes `user`'s rows written up to `now` and returns them (a flush's claim: two never get the same).
    func claim(of user: UUID, now: Double, on database: any Database) async throws -> [Row] {
        let rows = try await database.sql.raw(
            """
            DELETE FROM notice_digests WHERE user_id = \(bind: user) AND created_at <= \(bind: now)
            RETURNING address, kind, language, created_at
            """
        ).all()
        return try rows.map { row in
            Row(
                address: try row.decode(column: "address", as: String.self),
                notice: SecurityNotice(rawValue: try row.decode(column: "kind", as: String.self)),
                language: LatchLanguage(rawValue: try row.decode(column: "language", as: String.self)),
                createdAt: try row.decode(column: "created_at", as: Double.self))
        }
    }
}
