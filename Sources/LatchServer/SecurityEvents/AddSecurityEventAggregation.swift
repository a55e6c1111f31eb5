import FluentKit
import SQLKit

/// Issue 20 §5: `security_events.count` (how many failures a row stands for; NULL for a single event)
/// and `aggregate_key` (account, kind and window of an aggregated row; unique, NULL otherwise).
struct AddSecurityEventAggregation: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SecurityEvent.schema).field("count", .int).update()
        try await database.schema(SecurityEvent.schema).field("aggregate_key", .string).update()
        try await database.sql.create(index: "security_events_aggregate_key").unique().on(SecurityEvent.schema)
            .column("aggregate_key").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.drop(index: "security_events_aggregate_key").run()
        try await database.schema(SecurityEvent.schema).deleteField("aggregate_key").update()
        try await database.schema(SecurityEvent.schema).deleteField("count").update()
    }
}
