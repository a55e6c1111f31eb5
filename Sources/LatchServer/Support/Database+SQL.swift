import FluentKit
import SQLKit

extension Database {
    /// The SQL view of this database; both drivers Latch supports are SQL databases. While tracing is on
    /// (`LatchTracing`), each statement runs in a store-call span.
    var sql: any SQLDatabase {
        guard let sql = self as? any SQLDatabase else {
            preconditionFailure("Latch runs on SQLite or PostgreSQL, both of which are SQL databases")
        }
        return LatchTracing.isEnabled ? TracedSQLDatabase(base: sql) : sql
    }

    /// Creates a plain index (portable `CREATE INDEX`, which Fluent's schema builder lacks).
    func createIndex(_ name: String, on table: String, columns: String...) async throws {
        var builder = sql.create(index: name).on(table)
        for column in columns { builder = builder.column(column) }
        try await builder.run()
    }

    /// A column a migration adds to an existing table.
    typealias AddedColumn = (table: String, column: String, type: DatabaseSchema.DataType)

    /// Adds `columns`, one `ALTER TABLE` each (SQLite adds one column per statement).
    func addColumns(_ columns: [AddedColumn]) async throws {
        for (table, column, type) in columns {
            try await schema(table).field(.string(column), type).update()
        }
    }

    /// Drops `columns` (a migration's revert), the last added first.
    func dropColumns(_ columns: [AddedColumn]) async throws {
        for (table, column, _) in columns.reversed() {
            try await schema(table).deleteField(.string(column)).update()
        }
    }
}
