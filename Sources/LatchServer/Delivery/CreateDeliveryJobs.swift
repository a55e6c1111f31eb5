import FluentKit
import FluentSQL
import SQLKit

/// `delivery_jobs`: mail and SMS waiting for their carrier (the durable delivery queue, issue 12 §3).
///
/// | column | meaning |
/// |---|---|
/// | `id` | the job |
/// | `channel` | `email` or `sms` |
/// | `sealed_payload` | what to send (`DeliveryJobPayload`, JSON), AES-GCM under `LATCH_SECRET_KEY`: bodies carry codes |
/// | `attempts` | attempts started (a claim counts one, so an instance killed mid-send spends it) |
/// | `next_attempt_at` | not before (epoch seconds): now when queued, later after a failure (backoff) |
/// | `claimed_by`, `claimed_until` | the instance sending it and the end of its lease (renewed while sending) |
/// | `created_at` | when it was queued |
///
/// A sent job is deleted, body and all; so is one given up on.
struct CreateDeliveryJobs: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(DeliveryJobStore.table)
            .id()
            .field("channel", .string, .required)
            .field("sealed_payload", .string, .required)
            .field("attempts", .int, .required)
            .field("next_attempt_at", .double, .required)
            .field("claimed_by", .string)
            .field("claimed_until", .double)
            .field("created_at", .double, .required)
            .create()
        try await database.createIndex(
            "delivery_jobs_due", on: DeliveryJobStore.table, columns: "channel", "next_attempt_at")
        try await database.createIndex("delivery_jobs_claimed_by", on: DeliveryJobStore.table, columns: "claimed_by")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(DeliveryJobStore.table).delete()
    }
}

/// Issue 20 §9: `delivery_jobs.recipient_key`, the keyed hash of the address or number
/// (`DeliveryJobStore.recipientKey`), so a deletion drops the messages still queued for it.
struct AddDeliveryJobRecipient: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(DeliveryJobStore.table).field("recipient_key", .string).update()
        try await database.createIndex("delivery_jobs_recipient", on: DeliveryJobStore.table, columns: "recipient_key")
    }

    func revert(on database: any Database) async throws {
        try await database.sql.drop(index: "delivery_jobs_recipient").run()
        try await database.schema(DeliveryJobStore.table).deleteField("recipient_key").update()
    }
}

/// Issue 20 §2: `delivery_jobs.lane` (`DeliveryLane`: `code` or `notice`), so codes have room and
/// sends of their own whatever the notices do. Rows queued before it are codes.
struct AddDeliveryJobLane: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(DeliveryJobStore.table)
            .field("lane", .string, .required, .sql(.default(DeliveryLane.code.rawValue))).update()
        try await database.createIndex(
            "delivery_jobs_lane_due", on: DeliveryJobStore.table, columns: "channel", "lane", "next_attempt_at")
    }

    func revert(on database: any Database) async throws {
        try await database.sql.drop(index: "delivery_jobs_lane_due").run()
        try await database.schema(DeliveryJobStore.table).deleteField("lane").update()
    }
}
