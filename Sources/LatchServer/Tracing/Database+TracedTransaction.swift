import FluentKit
import Tracing

extension Database {
    /// `transaction`, with the caller's trace context inside it: both drivers hand out a connection through a
    /// future-based pool, and when none is free at once the closure runs in a task started from the pool's
    /// callback, which would lose the request's context, and its store calls would start traces of their own.
    /// Every transaction of Latch's goes through here.
    func tracedTransaction<T: Sendable>(_ closure: @escaping @Sendable (any Database) async throws -> T)
        async throws -> T
    {
        guard LatchTracing.isEnabled, let context = ServiceContext.current else {
            return try await transaction(closure)
        }
        return try await transaction { transaction in
            try await ServiceContext.withValue(context) { try await closure(transaction) }
        }
    }
}
