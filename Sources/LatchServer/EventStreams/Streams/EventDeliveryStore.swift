import FluentKit
import Foundation
import SQLKit

/// The `event_deliveries` table (issue 42 §3), and the only place with its SQL: one row per event and
/// stream, queued by the change's own transaction and worked off by `EventDeliveryWorker`.
///
/// - **Order**: a delivery is claimed only while it is the oldest pending one of its stream and user,
///   so one user's events reach a stream in the order they were written, one at a time, while other
///   users' events go beside them. A failed head holds back only its own user on its own stream.
/// - **Several instances** (PostgreSQL): the claim locks its candidates `FOR UPDATE SKIP LOCKED` and
///   leases them; a claimed head is still `pending`, so no other instance can take the user's next event
///   before it is delivered. An event is sent twice only when a lease ran out (a timeout, a crash).
/// - **Poll streams** (RFC 8936) are not claimed: the receiver reads the pending rows and acknowledges them.
struct EventDeliveryStore: Sendable {
    static let table = "event_deliveries"
    /// How long a delivery row is kept after it was queued (as long as its event).
    static let retention = OutboundEventStore.retention

    let kind: DatabaseKind

    /// A delivery this instance holds, with the event it carries.
    struct Claimed: Sendable {
        let id: Int
        let event: OutboundEventStore.Stored
        /// This attempt's number, 1-based.
        let attempt: Int
        /// When it was queued (or replayed): the 72 hours of retries count from here.
        let queuedAt: Double
    }

    /// A row of a stream's delivery log.
    struct Entry: Sendable, Equatable, Codable {
        let eventID: String?
        let type: String?
        let state: String
        let attempts: Int
        let queuedAt: Double
        let nextAttemptAt: Double?
        let lastAttemptAt: Double?
        let lastStatus: Int?
        let lastError: String?
        let deliveredAt: Double?
    }

    /// Queues event `seq` of `type` for every stream that hears it and is not disabled: one statement, run on
    /// the change's own database handle.
    func fanOut(seq: Int, type: OutboundEvent.Kind, user: UUID?, now: Double, on database: any Database)
        async throws
    {
        try await database.sql.raw(
            """
            INSERT INTO event_deliveries (stream_id, event_seq, user_key, state, attempts, next_attempt_at, created_at)
            SELECT id, \(bind: seq), \(bind: Self.userKey(user)), 'pending', 0, \(bind: now), \(bind: now)
            FROM event_streams
            WHERE status <> 'disabled' AND (types = '*' OR types LIKE \(bind: Self.pattern(type)) ESCAPE '!')
            """
        ).run()
    }

    /// Whether any stream that is not disabled hears events of `type` (`fanOut` would queue something).
    func anyStreamHears(_ type: OutboundEvent.Kind, on database: any Database) async throws -> Bool {
        try await database.sql.raw(
            """
            SELECT 1 AS hears FROM event_streams
            WHERE status <> 'disabled' AND (types = '*' OR types LIKE \(bind: Self.pattern(type)) ESCAPE '!')
            LIMIT 1
            """
        ).first() != nil
    }

    /// Queues event `seq` for `stream` alone (an SSF verification event); nothing when it is queued already.
    func queue(seq: Int, user: UUID?, stream: String, now: Double, on database: any Database) async throws {
        try await database.sql.raw(
            """
            INSERT INTO event_deliveries (stream_id, event_seq, user_key, state, attempts, next_attempt_at, created_at)
            VALUES (\(bind: stream), \(bind: seq), \(bind: Self.userKey(user)), 'pending', 0, \(bind: now), \(bind: now))
            ON CONFLICT (stream_id, event_seq) DO UPDATE SET state = 'pending', attempts = 0,
              next_attempt_at = excluded.next_attempt_at, created_at = excluded.created_at, claimed_by = NULL,
              claimed_until = NULL
            """
        ).run()
    }

    /// Claims at most `limit` due heads of `stream` (the oldest pending delivery of each user) for `worker`
    /// until `now + lease`, counting an attempt on each, with their events. A delivery whose event is gone
    /// (pruned) is marked failed.
    func claim(stream: String, by worker: String, limit: Int, now: Double, lease: Double, on database: any Database)
        async throws -> [Claimed]
    {
        guard limit > 0 else { return [] }
        let sql = database.sql
        let locking: SQLQueryString = kind == .postgresql ? "FOR UPDATE OF d SKIP LOCKED" : ""
        if kind == .sqlite {
            // A read first: polling an idle stream must not take SQLite's write lock every time.
            let due = try await sql.raw(
                """
                SELECT 1 AS due FROM event_deliveries
                WHERE stream_id = \(bind: stream) AND state = 'pending' AND next_attempt_at <= \(bind: now)
                  AND (claimed_until IS NULL OR claimed_until < \(bind: now))
                LIMIT 1
                """
            ).all()
            if due.isEmpty { return [] }
        }
        let rows = try await sql.raw(
            """
            UPDATE event_deliveries
            SET claimed_by = \(bind: worker), claimed_until = \(bind: now + lease), attempts = attempts + 1,
              last_attempt_at = \(bind: now)
            WHERE id IN (
                SELECT d.id FROM event_deliveries d
                WHERE d.stream_id = \(bind: stream) AND d.state = 'pending' AND d.next_attempt_at <= \(bind: now)
                  AND (d.claimed_until IS NULL OR d.claimed_until < \(bind: now))
                  AND NOT EXISTS (
                    SELECT 1 FROM event_deliveries e
                    WHERE e.stream_id = d.stream_id AND e.user_key = d.user_key AND e.state = 'pending' AND e.id < d.id)
                ORDER BY d.id LIMIT \(bind: limit) \(locking))
              AND (claimed_until IS NULL OR claimed_until < \(bind: now))
            RETURNING id, event_seq, attempts, created_at
            """
        ).all()
        guard !rows.isEmpty else { return [] }
        var claims: [(id: Int, seq: Int, attempt: Int, queuedAt: Double)] = []
        for row in rows {
            claims.append(
                (
                    try row.decode(column: "id", as: Int.self), try row.decode(column: "event_seq", as: Int.self),
                    try row.decode(column: "attempts", as: Int.self),
                    try row.decode(column: "created_at", as: Double.self)
                ))
        }
        let events = try await OutboundEventStore().events(seqs: claims.map(\.seq), on: database)
        var claimed: [Claimed] = []
        for claim in claims.sorted(by: { $0.id < $1.id }) {
            guard let event = events[claim.seq] else {
                try await fail(claim.id, claimedBy: worker, status: nil, error: "event expired", now: now, on: database)
                continue
            }
            claimed.append(Claimed(id: claim.id, event: event, attempt: claim.attempt, queuedAt: claim.queuedAt))
        }
        return claimed
    }

    /// Marks deliveries `worker` holds as delivered, with the receiver's status.
    func delivered(_ ids: [Int], claimedBy worker: String, status: Int?, now: Double, on database: any Database)
        async throws
    {
        guard !ids.isEmpty else { return }
        try await database.sql.raw(
            """
            UPDATE event_deliveries SET state = 'delivered', delivered_at = \(bind: now), last_status = \(bind: status),
              last_error = NULL, claimed_by = NULL, claimed_until = NULL
            WHERE id IN (\(unsafeRaw: ids.map(String.init).joined(separator: ","))) AND claimed_by = \(bind: worker)
            """
        ).run()
    }

    /// Releases a delivery `worker` holds for another attempt at `at`, recording what went wrong.
    func retry(
        _ id: Int, claimedBy worker: String, at: Double, status: Int?, error: String, on database: any Database
    ) async throws {
        try await database.sql.raw(
            """
            UPDATE event_deliveries SET next_attempt_at = \(bind: at), last_status = \(bind: status),
              last_error = \(bind: error), claimed_by = NULL, claimed_until = NULL
            WHERE id = \(bind: id) AND claimed_by = \(bind: worker)
            """
        ).run()
    }

    /// Gives up on a delivery `worker` holds: `failed`, replayable; the user's next event goes on.
    func fail(
        _ id: Int, claimedBy worker: String, status: Int?, error: String, now: Double, on database: any Database
    ) async throws {
        try await database.sql.raw(
            """
            UPDATE event_deliveries SET state = 'failed', last_status = \(bind: status), last_error = \(bind: error),
              claimed_by = NULL, claimed_until = NULL
            WHERE id = \(bind: id) AND claimed_by = \(bind: worker)
            """
        ).run()
    }

    /// Releases every delivery `worker` holds (an orderly stop), for any instance to take now.
    func releaseAll(claimedBy worker: String, on database: any Database) async throws {
        try await database.sql.raw(
            """
            UPDATE event_deliveries SET claimed_by = NULL, claimed_until = NULL, attempts = attempts - 1
            WHERE claimed_by = \(bind: worker) AND state = 'pending'
            """
        ).run()
    }

    /// A poll stream's pending events, oldest first, at most `limit` (RFC 8936: unacknowledged events are
    /// offered again), and whether more are waiting.
    func pending(stream: String, limit: Int, on database: any Database) async throws
        -> (events: [OutboundEventStore.Stored], more: Bool)
    {
        let rows = try await database.sql.raw(
            """
            SELECT event_seq FROM event_deliveries WHERE stream_id = \(bind: stream) AND state = 'pending'
            ORDER BY id LIMIT \(bind: limit + 1)
            """
        ).all()
        let seqs = try rows.map { try $0.decode(column: "event_seq", as: Int.self) }
        let page = Array(seqs.prefix(limit))
        let events = try await OutboundEventStore().events(seqs: page, on: database)
        return (page.compactMap { events[$0] }, seqs.count > limit)
    }

    /// Marks the poll stream's events `eventIDs` (`jti`s) delivered; answers how many were pending.
    @discardableResult
    func acknowledge(stream: String, eventIDs: [String], now: Double, on database: any Database) async throws -> Int {
        guard !eventIDs.isEmpty else { return 0 }
        let seqs = try await OutboundEventStore().seqs(ofIDs: eventIDs, on: database)
        guard !seqs.isEmpty else { return 0 }
        return try await database.sql.raw(
            """
            UPDATE event_deliveries SET state = 'delivered', delivered_at = \(bind: now)
            WHERE stream_id = \(bind: stream) AND state = 'pending'
              AND event_seq IN (\(unsafeRaw: seqs.map(String.init).joined(separator: ",")))
            RETURNING id
            """
        ).all().count
    }

    /// Queues again, for `stream`, every event from `seq` on that `types` hears: delivered and failed ones
    /// go back to pending with a fresh 72 hours, and events written before the stream existed are added.
    /// Answers how many deliveries are queued.
    func replay(
        stream: String, from seq: Int, types: EventTypeFilter, now: Double, on database: any Database
    ) async throws -> Int {
        let reset = try await database.sql.raw(
            """
            UPDATE event_deliveries SET state = 'pending', attempts = 0, next_attempt_at = \(bind: now),
              created_at = \(bind: now), claimed_by = NULL, claimed_until = NULL
            WHERE stream_id = \(bind: stream) AND event_seq >= \(bind: seq) AND state <> 'pending'
            RETURNING id
            """
        ).all().count
        var added = 0
        var after = seq - 1
        let events = OutboundEventStore()
        while true {
            let page = try await events.events(after: after, limit: 500, on: database)
            guard let last = page.last else { break }
            after = last.seq
            for event in page {
                guard let type = OutboundEvent.Kind(rawValue: event.type), types.includes(type) else { continue }
                let inserted = try await database.sql.raw(
                    """
                    INSERT INTO event_deliveries (stream_id, event_seq, user_key, state, attempts, next_attempt_at,
                      created_at)
                    VALUES (\(bind: stream), \(bind: event.seq), \(bind: Self.userKey(event.user)), 'pending', 0,
                      \(bind: now), \(bind: now))
                    ON CONFLICT (stream_id, event_seq) DO NOTHING RETURNING id
                    """
                ).all()
                added += inserted.count
            }
        }
        return reset + added
    }

    /// The stream's delivery log, newest first, at most `limit`; only deliveries in `state` when given.
    func log(stream: String, state: String? = nil, limit: Int, on database: any Database) async throws -> [Entry] {
        let ofState: SQLQueryString = state.map { "AND d.state = \(bind: $0)" } ?? ""
        return try await database.sql.raw(
            """
            SELECT o.id AS event_id, o.type, d.state, d.attempts, d.created_at, d.next_attempt_at, d.last_attempt_at,
              d.last_status, d.last_error, d.delivered_at
            FROM event_deliveries d LEFT JOIN outbound_events o ON o.seq = d.event_seq
            WHERE d.stream_id = \(bind: stream) \(ofState) ORDER BY d.id DESC LIMIT \(bind: limit)
            """
        ).all().map { row in
            let state = try row.decode(column: "state", as: String.self)
            return Entry(
                eventID: try row.decode(column: "event_id", as: String?.self),
                type: try row.decode(column: "type", as: String?.self), state: state,
                attempts: try row.decode(column: "attempts", as: Int.self),
                queuedAt: try row.decode(column: "created_at", as: Double.self),
                nextAttemptAt: state == "pending" ? try row.decode(column: "next_attempt_at", as: Double.self) : nil,
                lastAttemptAt: try row.decode(column: "last_attempt_at", as: Double?.self),
                lastStatus: try row.decode(column: "last_status", as: Int?.self),
                lastError: try row.decode(column: "last_error", as: String?.self),
                deliveredAt: try row.decode(column: "delivered_at", as: Double?.self))
        }
    }

    /// Per stream: pending deliveries and when the oldest was queued (the metrics' backlog and age).
    func backlog(on database: any Database) async throws -> [String: (pending: Int, oldest: Double)] {
        let rows = try await database.sql.raw(
            """
            SELECT stream_id, COUNT(*) AS pending, MIN(created_at) AS oldest FROM event_deliveries
            WHERE state = 'pending' GROUP BY stream_id
            """
        ).all()
        var backlog: [String: (pending: Int, oldest: Double)] = [:]
        for row in rows {
            backlog[try row.decode(column: "stream_id", as: String.self)] = (
                try row.decode(column: "pending", as: Int.self), try row.decode(column: "oldest", as: Double.self)
            )
        }
        return backlog
    }

    /// Deletes every delivery of `stream` (the stream was removed).
    func forget(stream: String, on database: any Database) async throws {
        try await database.sql.raw("DELETE FROM event_deliveries WHERE stream_id = \(bind: stream)").run()
    }

    /// Deletes one batch of deliveries queued more than `retention` ago; answers how many.
    @discardableResult
    func prune(now: Double, on database: any Database) async throws -> Int {
        try await database.sql.raw(
            """
            DELETE FROM event_deliveries WHERE id IN (
              SELECT id FROM event_deliveries WHERE created_at <= \(bind: now - Self.retention)
              ORDER BY id LIMIT \(unsafeRaw: String(OutboundEventStore.pruneBatch)))
            RETURNING id
            """
        ).all().count
    }

    /// What orders a user's deliveries: the user id in lowercase, `''` for an event of no user.
    static func userKey(_ user: UUID?) -> String { user?.uuidString.lowercased() ?? "" }

    /// `LIKE` pattern of `type` in `EventTypeFilter.stored`, `!` escaping `_` and `%`.
    static func pattern(_ type: OutboundEvent.Kind) -> String {
        let escaped = type.rawValue.replacingOccurrences(of: "!", with: "!!")
            .replacingOccurrences(of: "_", with: "!_").replacingOccurrences(of: "%", with: "!%")
        return "%," + escaped + ",%"
    }
}
