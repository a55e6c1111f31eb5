import FluentKit
import SQLKit
import Tracing

extension Database {
    /// `transaction`, with the caller's trace context inside it: both drivers hand out a connection through a
    /// future-based pool, and when none is free at once the closure runs in a task started from the pool's
    /// callback, which would lose the request's context, and its store calls would start traces of their own.
    /// Every transaction of Latch's goes through here.
    ///
    /// It also carries the change's outbound transaction id (issue 42 §1, `OutboundTransaction`) in, for
    /// the same reason: the events a change emits share the id of its transaction.
    ///
    /// On SQLite the transaction takes the write lock with its first statement (`takeSQLiteWriteLock`): a
    /// deferred transaction that read first and then wrote failed at once with SQLITE_BUSY (answered 500)
    /// when another connection had committed in between, which the busy handler cannot wait out (seen with
    /// eight clients freezing and unfreezing accounts, scripts/ci/event_streams_crash.py).
    func tracedTransaction<T: Sendable>(_ closure: @escaping @Sendable (any Database) async throws -> T)
        async throws -> T
    {
        let txn = OutboundTransaction.current ?? OutboundTransaction.newID()
        guard LatchTracing.isEnabled, let context = ServiceContext.current else {
            return try await transaction { transaction in
                try await transaction.takeSQLiteWriteLock()
                return try await OutboundTransaction.$current.withValue(txn) { try await closure(transaction) }
            }
        }
        return try await transaction { transaction in
            // The lock's statement too is the request's child (outside, it started a trace of its own).
            try await ServiceContext.withValue(context) {
                try await transaction.takeSQLiteWriteLock()
                return try await OutboundTransaction.$current.withValue(txn) { try await closure(transaction) }
            }
        }
    }
}
