import FluentKit
import Foundation
import Synchronization

/// Ends sessions in the database and in this instance's status cache. Inside `committing` the cache
/// hears of them only once the transaction commits (issue 28 §2): a revocation that rolls back (its
/// notice could not be queued, a later statement failed) leaves the sessions live everywhere, as the
/// database has them. PostgreSQL's NOTIFY (a trigger on `sessions`) is transactional already.
struct SessionRevocation: Sendable {
    let status: SessionStatusCache

    /// Which of a user's live sessions to end.
    enum Scope {
        case one(UUID)
        case allExcept(UUID)
        case all
    }

    /// The sessions revoked inside the running `committing` call, marked in the cache after its commit.
    private final class Pending: Sendable {
        let ids = Mutex<[UUID]>([])
    }

    @TaskLocal private static var pending: Pending?

    /// Runs `body` in a transaction of `database` (or in the caller's, when `database` is one and a
    /// `committing` call is already running); the sessions revoked in it reach this instance's status
    /// cache after the outermost commit, and never when it rolls back.
    func committing<T: Sendable>(
        on database: any Database, _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        if Self.pending != nil { return try await database.tracedTransaction(body) }
        let pending = Pending()
        let result = try await Self.$pending.withValue(pending) {
            try await database.tracedTransaction(body)
        }
        status.markRevoked(pending.ids.withLock { $0 })
        return result
    }

    /// Revokes the user's sessions in `scope`; returns the ids that were live and are now revoked.
    @discardableResult
    func revoke(_ scope: Scope, of userID: UUID, now: Double, on database: any Database) async throws -> [UUID] {
        let ids = try await SessionStore().revoke(scope, of: userID, now: now, on: database)
        if let pending = Self.pending {
            pending.ids.withLock { $0.append(contentsOf: ids) }
        } else {
            status.markRevoked(ids)
        }
        return ids
    }
}
