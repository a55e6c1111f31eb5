import FluentKit
import Foundation
import SQLKit

/// The account's sessions beyond the signed-in paths' (`SessionStore`): whether another is live (a
/// security change that ends the others checks it did), and every session as the export lists it.
extension SessionStore {
    /// Whether a session of `user` other than `acting` (any, when nil) is live at `now`.
    func hasLiveSession(of user: UUID, otherThan acting: UUID?, now: Double, on database: any Database) async throws
        -> Bool
    {
        let acting = acting.map { "AND id <> \(bind: $0)" as SQLQueryString } ?? ""
        let live = try await database.sql.raw(
            """
            SELECT id FROM sessions WHERE user_id = \(bind: user) AND revoked_at IS NULL
              AND refresh_expires_at > \(bind: now) \(acting) LIMIT 1
            """
        ).first()
        return live != nil
    }

    /// Every session of `user`, live or ended, newest first.
    func all(of user: UUID, on database: any Database) async throws -> [Session] {
        try await Session.query(on: database).filter(\.$userID == user).sort(\.$createdAt, .descending).all()
    }
}
