import FluentKit

/// Issue 42 §1: `outbound_events`, one row per event the app's backend hears, written in the change's
/// transaction. `seq` orders them as they were written (the database's own counter); `id` is
/// the event's stable `evt_…`; `txn` is shared by the events of one change; `data` is the type's JSON.
struct CreateOutboundEvents: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(OutboundEventStore.schema)
            .field("seq", .int64, .identifier(auto: true))
            .field("id", .string, .required)
            .field("type", .string, .required)
            .field("occurred_at", .double, .required)
            .field("user_id", .uuid)
            .field("session_id", .uuid)
            .field("actor", .string, .required)
            .field("txn", .string, .required)
            .field("data", .string, .required)
            .unique(on: "id")
            .create()
        try await database.createIndex(
            "outbound_events_occurred_at", on: OutboundEventStore.schema, columns: "occurred_at")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(OutboundEventStore.schema).delete()
    }
}
