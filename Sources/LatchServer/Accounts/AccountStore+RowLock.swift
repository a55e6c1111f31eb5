import FluentKit
import Foundation
import SQLKit

/// The account row's locks (`AccountStore`): statements on `users` that change nothing and serialise.
extension Database {
    /// Serialises what follows, up to the end of the enclosing transaction, with every other change to
    /// account `user` that takes this lock: a write to the user's row takes its row lock on PostgreSQL and
    /// the database's write lock on SQLite, before anything is read. Call it first in the transaction, so
    /// two changes of one account queue instead of deadlocking or both counting what the other removes.
    func lockUserRow(_ user: UUID) async throws {
        try await sql.raw("UPDATE users SET email_verified = email_verified WHERE id = \(bind: user)").run()
    }

    /// On SQLite, makes the open transaction a writer now (a write statement that changes nothing takes
    /// the lock, waiting in the busy handler while another connection holds it), so its reads and writes
    /// see one snapshot; PostgreSQL needs nothing (its row locks and MVCC serve).
    func takeSQLiteWriteLock() async throws {
        guard sql.dialect.name == "sqlite" else { return }
        try await sql.raw("UPDATE users SET id = id WHERE 0").run()
    }
}
