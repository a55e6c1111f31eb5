import Logging
import NIOCore
import SQLKit

/// An SQL database whose statements each run in a store-call span (`LatchTracing.storeCall`): what
/// `Database.sql` hands out while tracing is on. Everything else is the wrapped database's.
struct TracedSQLDatabase: SQLDatabase {
    let base: any SQLDatabase

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
        -> EventLoopFuture<Void>
    {
        base.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (text, _) = base.serialize(query)
        try await LatchTracing.storeCall(StoreCallSpan(sql: text), system: dialect.name) {
            try await base.execute(sql: query, onRow)
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await base.withSession { session in try await closure(TracedSQLDatabase(base: session)) }
    }
}
