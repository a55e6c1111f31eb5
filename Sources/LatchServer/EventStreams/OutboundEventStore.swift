import FluentKit
import Foundation
import Logging
import SQLKit

/// The table of outbound events (issue 42 §1), and the only place with its SQL. `append` runs on the
/// change's own database handle, so the row commits or rolls back with the change.
struct OutboundEventStore: Sendable {
    /// The stream deliveries an append queues (its kind only matters to claims, not to the fan-out).
    private var deliveries: EventDeliveryStore { EventDeliveryStore(kind: .sqlite) }
    static let schema = "outbound_events"
    /// How long an event is kept after it happened: three days of retries, and as long again to replay it.
    static let retention: Double = 6 * 86_400
    /// At most this many rows deleted per round (SQLite's write lock is held briefly).
    static let pruneBatch = 2_000

    /// Writes `event` on `database` (the change's transaction, or the change's own statement), and queues
    /// it for every stream that hears it (`EventDeliveryStore.fanOut`) on the same handle: a committed event
    /// is always delivered, a rolled-back one never. Answers its seq. `fanOut: false` queues it nowhere (an
    /// SSF verification event, which its caller queues for one stream).
    @discardableResult
    func append(_ event: OutboundEvent, fanOut: Bool = true, on database: any Database) async throws -> Int {
        let data = try Self.dataText(of: event)
        let row = try await database.sql.raw(
            """
            INSERT INTO outbound_events (id, type, occurred_at, user_id, session_id, actor, txn, data)
            VALUES (\(bind: event.id), \(bind: event.type.rawValue), \(bind: event.occurredAt), \(bind: event.user),
              \(bind: event.session), \(bind: event.actor.rawValue), \(bind: event.transaction), \(bind: data))
            RETURNING seq
            """
        ).first()
        guard let seq = try row?.decode(column: "seq", as: Int.self) else { throw NotWritten() }
        if fanOut {
            try await deliveries.fanOut(
                seq: seq, type: event.type, user: event.user, now: event.occurredAt, on: database)
        }
        return seq
    }

    /// `append` for events of one kind each (an import's batch of `account.imported`): one statement for
    /// at most `maximumBatch` events, then each queued for the streams that hear its type, if any do.
    func appendEach(_ events: [OutboundEvent], on database: any Database) async throws {
        precondition(events.count <= Self.maximumBatch, "at most \(Self.maximumBatch) events a statement")
        guard let type = events.first?.type else { return }
        precondition(events.allSatisfy { $0.type == type }, "one type a batch")
        let values: [SQLQueryString] = try events.map { event in
            let data = try Self.dataText(of: event)
            return """
                (\(bind: event.id), \(bind: event.type.rawValue), \(bind: event.occurredAt), \(bind: event.user),
                  \(bind: event.session), \(bind: event.actor.rawValue), \(bind: event.transaction), \(bind: data))
                """
        }
        let rows = try await database.sql.raw(
            """
            INSERT INTO outbound_events (id, type, occurred_at, user_id, session_id, actor, txn, data)
            VALUES \(values.joined(separator: ", ")) RETURNING seq, user_id
            """
        ).all()
        guard rows.count == events.count else { throw NotWritten() }
        guard try await deliveries.anyStreamHears(type, on: database) else { return }
        for row in rows {
            try await deliveries.fanOut(
                seq: try row.decode(column: "seq", as: Int.self), type: type,
                user: try row.decode(column: "user_id", as: UUID?.self), now: events[0].occurredAt, on: database)
        }
    }

    /// An event's `data` as stored: JSON text, keys sorted.
    private static func dataText(of event: OutboundEvent) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(event.data), as: UTF8.self)
    }

    /// At most this many events in one `appendEach` (8 values each, well within every database's bind limit).
    static let maximumBatch = 1_000

    /// An event as stored, with its place in the order of commits (`seq`).
    struct Stored: Sendable, Equatable {
        let seq: Int
        let id: String
        let type: String
        let occurredAt: Double
        let user: UUID?
        let session: UUID?
        let actor: String
        let transaction: String
        /// The `data` object as JSON text (sorted keys).
        let data: String
    }

    /// The events after `seq` in the order they were written, at most `limit`; only `user`'s when given.
    func events(after seq: Int = 0, user: UUID? = nil, limit: Int = 100, on database: any Database) async throws
        -> [Stored]
    {
        let userFilter: SQLQueryString = user.map { "AND user_id = \(bind: $0)" } ?? ""
        return try await database.sql.raw(
            """
            SELECT \(unsafeRaw: Self.columns) FROM outbound_events
            WHERE seq > \(bind: seq) \(userFilter) ORDER BY seq LIMIT \(bind: limit)
            """
        ).all().map(Self.stored(of:))
    }

    private static let columns = "seq, id, type, occurred_at, user_id, session_id, actor, txn, data"

    private static func stored(of row: any SQLRow) throws -> Stored {
        Stored(
            seq: try row.decode(column: "seq", as: Int.self), id: try row.decode(column: "id", as: String.self),
            type: try row.decode(column: "type", as: String.self),
            occurredAt: try row.decode(column: "occurred_at", as: Double.self),
            user: try row.decode(column: "user_id", as: UUID?.self),
            session: try row.decode(column: "session_id", as: UUID?.self),
            actor: try row.decode(column: "actor", as: String.self),
            transaction: try row.decode(column: "txn", as: String.self),
            data: try row.decode(column: "data", as: String.self))
    }

    /// The seq of the last event written (0 before the first): how many events were emitted, as the
    /// `latch_events_emitted` gauge shows it (on PostgreSQL a rolled-back change leaves a gap).
    func lastSeq(on database: any Database) async throws -> Int {
        try await database.sql.raw("SELECT MAX(seq) AS seq FROM outbound_events").first()?
            .decode(column: "seq", as: Int?.self) ?? 0
    }

    /// The database answered an INSERT without its row.
    struct NotWritten: Error {}

    /// The events `seqs`, by seq (a pruned one is missing).
    func events(seqs: [Int], on database: any Database) async throws -> [Int: Stored] {
        guard !seqs.isEmpty else { return [:] }
        let rows = try await database.sql.raw(
            """
            SELECT \(unsafeRaw: Self.columns) FROM outbound_events
            WHERE seq IN (\(unsafeRaw: seqs.map(String.init).joined(separator: ",")))
            """
        ).all()
        var events: [Int: Stored] = [:]
        for row in rows {
            let event = try Self.stored(of: row)
            events[event.seq] = event
        }
        return events
    }

    /// The seqs of the events `ids` (`evt_…`); unknown ids are left out.
    func seqs(ofIDs ids: [String], on database: any Database) async throws -> [Int] {
        guard !ids.isEmpty else { return [] }
        let list = SQLList(ids.map { SQLBind($0) })
        return try await database.sql.raw("SELECT seq FROM outbound_events WHERE id IN (\(list))").all()
            .map { try $0.decode(column: "seq", as: Int.self) }
    }

    /// The seq a replay starts from: that of event `id`, or the first event at or after `time`; nil when
    /// there is no such event.
    func firstSeq(id: String? = nil, at time: Double? = nil, on database: any Database) async throws -> Int? {
        let condition: SQLQueryString =
            if let id { "id = \(bind: id)" } else { "occurred_at >= \(bind: time ?? 0)" }
        return try await database.sql.raw(
            "SELECT MIN(seq) AS seq FROM outbound_events WHERE \(condition)"
        ).first()?.decode(column: "seq", as: Int?.self)
    }

    /// Deletes one batch of events older than `retention`; answers how many.
    @discardableResult
    func prune(now: Double, on database: any Database) async throws -> Int {
        try await database.sql.raw(
            """
            DELETE FROM outbound_events WHERE seq IN (
              SELECT seq FROM outbound_events WHERE occurred_at <= \(bind: now - Self.retention)
              ORDER BY seq LIMIT \(unsafeRaw: String(Self.pruneBatch)))
            RETURNING seq
            """
        ).all().count
    }

    /// Runs `prune` every minute while latchd serves (on every instance that runs background tasks).
    static func task(services latch: LatchServices, database: @escaping @Sendable () -> any Database, logger: Logger)
        -> PeriodicTask
    {
        PeriodicTask(every: .seconds(60), name: "old outbound events", logger: logger) {
            try await OutboundEventStore().prune(now: latch.clock.epochSeconds, on: database())
        }
    }
}
