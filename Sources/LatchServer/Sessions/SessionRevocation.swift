import Fluent
import Foundation
import SQLKit

/// Ends sessions in the database and, at once, in this instance's status cache.
struct SessionRevocation: Sendable {
    let status: SessionStatusCache

    /// Which of a user's live sessions to end.
    enum Scope {
        case one(UUID)
        case allExcept(UUID)
        case all
    }

    /// Revokes the user's sessions in `scope`; returns the ids that were live and are now revoked.
    @discardableResult
    func revoke(_ scope: Scope, of userID: UUID, now: Double, on database: any Database) async throws -> [UUID] {
        let filter: SQLQueryString =
            switch scope {
            case .one(let id): "AND id = \(bind: id)"
            case .allExcept(let id): "AND id <> \(bind: id)"
            case .all: ""
            }
        let rows = try await database.sql.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: now)
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL \(filter)
            RETURNING id
            """
        ).all()
        let ids = try rows.map { try $0.decode(column: "id", as: UUID.self) }
        status.markRevoked(ids)
        return ids
    }
}
