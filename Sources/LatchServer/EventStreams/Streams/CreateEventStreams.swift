import FluentKit

/// Issue 42 §3: the streams the app's backend hears events on, and one delivery row per event and stream.
///
/// - `event_streams`: a stream's kind, URL, types (`EventTypeFilter.stored`), SSF audience and status;
///   the webhook secrets and an SSF push `Authorization` header sealed (`SecretBox`), the previous
///   secret with the time it stops being sent (rotation keeps both for 24 h).
/// - `event_deliveries`: written by the change's own transaction (the fan-out of `OutboundEventStore.append`),
///   so a committed event is always queued. `state` is `pending`, `delivered` or `failed` (72 h of
///   failures); `user_key` orders one user's events (`''` for none); `claimed_*` is an instance's lease.
/// - `ssf_receivers`: the receiver keys an operator made (hashed), each with the audience its streams get.
struct CreateEventStreams: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(EventStreamStore.table)
            .field("id", .string, .identifier(auto: false))
            .field("kind", .string, .required)
            .field("url", .string)
            .field("types", .string, .required)
            .field("audience", .string)
            .field("status", .string, .required)
            .field("description", .string)
            .field("receiver", .string)
            .field("sealed_secret", .string)
            .field("sealed_previous_secret", .string)
            .field("previous_secret_until", .double)
            .field("sealed_authorization", .string)
            .field("created_at", .double, .required)
            .field("updated_at", .double, .required)
            .create()
        try await database.schema(EventDeliveryStore.table)
            .field("id", .int64, .identifier(auto: true))
            .field("stream_id", .string, .required)
            .field("event_seq", .int64, .required)
            .field("user_key", .string, .required)
            .field("state", .string, .required)
            .field("attempts", .int, .required)
            .field("next_attempt_at", .double, .required)
            .field("created_at", .double, .required)
            .field("last_attempt_at", .double)
            .field("last_status", .int)
            .field("last_error", .string)
            .field("delivered_at", .double)
            .field("claimed_by", .string)
            .field("claimed_until", .double)
            .unique(on: "stream_id", "event_seq")
            .create()
        try await database.createIndex(
            "event_deliveries_due", on: EventDeliveryStore.table, columns: "stream_id", "state", "next_attempt_at")
        try await database.createIndex(
            "event_deliveries_user_order", on: EventDeliveryStore.table, columns: "stream_id", "user_key", "state",
            "id")
        try await database.createIndex("event_deliveries_event", on: EventDeliveryStore.table, columns: "event_seq")
        try await database.schema("ssf_receivers")
            .field("id", .string, .identifier(auto: false))
            .field("key_hash", .string, .required)
            .field("audience", .string, .required)
            .field("description", .string)
            .field("created_at", .double, .required)
            .unique(on: "key_hash")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("ssf_receivers").delete()
        try await database.schema(EventDeliveryStore.table).delete()
        try await database.schema(EventStreamStore.table).delete()
    }
}
