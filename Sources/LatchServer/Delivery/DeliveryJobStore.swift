import FluentKit
import Foundation
import SQLKit

/// The durable delivery queue's table (`delivery_jobs`, see `CreateDeliveryJobs`): every change is one
/// SQL statement, so several latchd processes sharing the database never send a job twice.
///
/// - **Queue** (`enqueue`): one INSERT, sealed payload, refused (503 `delivery_queue_full`) when the
///   channel's lane (`DeliveryLane`: codes, notices) already holds `capacity` unsent jobs. Pass the transaction's database to queue a message
///   with the change that causes it (a transactional outbox): rolled back together, committed together.
/// - **Claim** (`claim`): one UPDATE that takes due jobs nobody holds (or whose holder's lease ran out)
///   and counts an attempt; on PostgreSQL the candidates are locked `FOR UPDATE SKIP LOCKED`, so
///   instances claiming at once take different jobs instead of waiting for each other; SQLite runs one
///   writer at a time, so its conditional UPDATE is the whole claim.
/// - **Lease**: a claim holds a job for `lease` seconds; the holder renews it while sending
///   (`renew`), so a killed instance's jobs are taken again once its lease ends.
/// - **Outcome**: sent, or given up on: deleted with its body (`finish`); a temporary failure: released
///   for a later attempt (`retry`). Both only while the job is still this instance's.
struct DeliveryJobStore: Sendable {
    static let table = "delivery_jobs"

    let secrets: SecretBox
    /// Unsent jobs per channel at most.
    let capacity: Int
    /// The database the queue lives in (claims differ).
    let kind: DatabaseKind

    /// What `recipient_key` holds for an address or number: a keyed hash (the payload is sealed), so
    /// a deleted account's queued messages can be found and dropped (issue 20 §9).
    static func recipientKey(of recipient: String, secrets: SecretBox) -> String {
        secrets.keyedHash(recipient.lowercased(), context: "delivery_recipient")
    }

    /// A job this instance holds.
    struct ClaimedJob: Sendable {
        let id: UUID
        let payload: DeliveryJobPayload
        /// This attempt's number, 1-based.
        let attempt: Int
    }

    /// Queues `payload` in `lane`; throws `LatchError.deliveryQueueFull` (nothing queued) when that lane
    /// of its channel already holds `capacity` unsent jobs (the other lane's jobs take none of its room).
    /// The cap is counted by the INSERT itself (at most `capacity` rows read), so under concurrent
    /// inserts on PostgreSQL it may be passed by a few rows, never by more.
    @discardableResult
    func enqueue(
        _ payload: DeliveryJobPayload, lane: DeliveryLane = .code, now: Double, on database: any Database
    ) async throws -> UUID {
        let id = UUID()
        let sealed = try secrets.seal(try JSONEncoder().encode(payload))
        let channel = payload.channel
        let recipient = payload.recipient.map { Self.recipientKey(of: $0, secrets: secrets) }
        let inserted = try await database.sql.raw(
            """
            INSERT INTO delivery_jobs (id, channel, lane, sealed_payload, attempts, next_attempt_at, created_at, recipient_key)
            SELECT \(bind: id), \(bind: channel), \(bind: lane.rawValue), \(bind: sealed), 0, \(bind: now), \(bind: now),
              \(bind: recipient)
            WHERE (SELECT COUNT(*) FROM (
                SELECT 1 FROM delivery_jobs WHERE channel = \(bind: channel) AND lane = \(bind: lane.rawValue)
                LIMIT \(bind: capacity)) AS backlog)
              < \(bind: capacity)
            RETURNING id
            """
        ).all()
        guard !inserted.isEmpty else { throw LatchError.deliveryQueueFull }
        return id
    }

    /// Deletes the job `id` (a rehearsal's, in the transaction that enqueued it).
    func discard(_ id: UUID, on database: any Database) async throws {
        try await database.sql.raw("DELETE FROM delivery_jobs WHERE id = \(bind: id)").run()
    }

    /// Claims at most `limit` due jobs of `channel`'s `lane` for `worker` until `now + lease`, counting an attempt
    /// on each. A job whose payload cannot be opened (sealed under another `LATCH_SECRET_KEY`) is deleted
    /// and counted in `unreadable`, for the caller to log.
    func claim(
        channel: String, lane: DeliveryLane = .code, by worker: String, limit: Int, now: Double, lease: Double,
        on database: any Database,
        unreadable: ((Int) -> Void)? = nil
    ) async throws -> [ClaimedJob] {
        guard limit > 0 else { return [] }
        let sql = database.sql
        let postgres = kind == .postgresql
        if !postgres {
            // A read first: polling an idle queue must not take SQLite's write lock every time.
            let due = try await sql.raw(
                """
                SELECT 1 AS due FROM delivery_jobs
                WHERE channel = \(bind: channel) AND lane = \(bind: lane.rawValue) AND next_attempt_at <= \(bind: now)
                  AND (claimed_until IS NULL OR claimed_until < \(bind: now))
                LIMIT 1
                """
            ).all()
            if due.isEmpty { return [] }
        }
        let locking: SQLQueryString = postgres ? "FOR UPDATE SKIP LOCKED" : ""
        let rows = try await sql.raw(
            """
            UPDATE delivery_jobs
            SET claimed_by = \(bind: worker), claimed_until = \(bind: now + lease), attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM delivery_jobs
                WHERE channel = \(bind: channel) AND lane = \(bind: lane.rawValue) AND next_attempt_at <= \(bind: now)
                  AND (claimed_until IS NULL OR claimed_until < \(bind: now))
                ORDER BY next_attempt_at LIMIT \(bind: limit) \(locking))
              AND (claimed_until IS NULL OR claimed_until < \(bind: now))
            RETURNING id, sealed_payload, attempts
            """
        ).all()
        var jobs: [ClaimedJob] = []
        var discarded = 0
        for row in rows {
            let id = try row.decode(column: "id", as: UUID.self)
            let sealed = try row.decode(column: "sealed_payload", as: String.self)
            let attempt = try row.decode(column: "attempts", as: Int.self)
            guard let opened = try? secrets.open(sealed),
                let payload = try? JSONDecoder().decode(DeliveryJobPayload.self, from: opened)
            else {
                try await finish(id, claimedBy: worker, on: database)
                discarded += 1
                continue
            }
            jobs.append(ClaimedJob(id: id, payload: payload, attempt: attempt))
        }
        if discarded > 0 { unreadable?(discarded) }
        return jobs
    }

    /// Extends the lease of every job `worker` holds.
    func renew(claimedBy worker: String, until: Double, on database: any Database) async throws {
        try await database.sql.raw(
            """
            UPDATE delivery_jobs SET claimed_until = \(bind: until) WHERE claimed_by = \(bind: worker)
            """
        ).run()
    }

    /// Deletes a job (sent, or given up on) with its body, if `worker` still holds it.
    func finish(_ id: UUID, claimedBy worker: String, on database: any Database) async throws {
        try await database.sql.raw(
            """
            DELETE FROM delivery_jobs WHERE id = \(bind: id) AND claimed_by = \(bind: worker)
            """
        ).run()
    }

    /// Releases a job `worker` holds for another attempt at `at` (any instance may take it then).
    func retry(_ id: UUID, claimedBy worker: String, at: Double, on database: any Database) async throws {
        try await database.sql.raw(
            """
            UPDATE delivery_jobs SET claimed_by = NULL, claimed_until = NULL, next_attempt_at = \(bind: at)
            WHERE id = \(bind: id) AND claimed_by = \(bind: worker)
            """
        ).run()
    }

    /// Releases every job `worker` holds at once (an orderly stop), for any instance to take now.
    func releaseAll(claimedBy worker: String, on database: any Database) async throws {
        try await database.sql.raw(
            """
            UPDATE delivery_jobs SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = \(bind: worker)
            """
        ).run()
    }

    /// Unsent jobs of `channel` (the queue depth), of one `lane` or of both.
    func backlog(channel: String, lane: DeliveryLane? = nil, on database: any Database) async throws -> Int {
        let ofLane: SQLQueryString = lane.map { "AND lane = \(bind: $0.rawValue)" } ?? ""
        let rows = try await database.sql.raw(
            """
            SELECT COUNT(*) AS jobs FROM delivery_jobs WHERE channel = \(bind: channel) \(ofLane)
            """
        ).all()
        return try rows.first?.decode(column: "jobs", as: Int.self) ?? 0
    }
}
