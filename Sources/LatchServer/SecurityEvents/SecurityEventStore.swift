import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The statements on `security_events` (issue 44 §1): a user's log written (one event, a batch of one
/// kind, or a failure counted into its hour's row) and read newest first. What is recorded, and which
/// kinds are counted per hour, is `SecurityEventLog`'s to say.
struct SecurityEventStore: Sendable {
    /// Inserts one event of `kind` at `now`.
    func insert(
        _ kind: SecurityEvent.Kind, user: UUID?, session: UUID?, ip: String?, now: Double, actor: String?,
        detail: String?, on database: any Database
    ) async throws {
        // A direct statement: every request that changes something records an event, and Fluent's create
        // reflects over the model's fields each time (issue 29 §3's verification profile).
        try await database.sql.raw(
            """
            INSERT INTO security_events (id, user_id, type, session_id, ip, created_at, actor, detail)
            VALUES (\(bind: UUID()), \(bind: user), \(bind: kind.rawValue), \(bind: session), \(bind: ip), \(bind: now),
              \(bind: actor), \(bind: detail))
            """
        ).run()
    }

    /// Inserts one event of `kind` at `now` for each of `users` (not empty), in one statement.
    func insertEach(
        _ kind: SecurityEvent.Kind, users: some Collection<UUID>, now: Double, actor: String?, on database: any Database
    ) async throws {
        let values: [SQLQueryString] = users.map { user in
            "(\(bind: UUID()), \(bind: user), \(bind: kind.rawValue), NULL, NULL, \(bind: now), \(bind: actor), NULL)"
        }
        try await database.sql.raw(
            """
            INSERT INTO security_events (id, user_id, type, session_id, ip, created_at, actor, detail)
            VALUES \(values.joined(separator: ", "))
            """
        ).run()
    }

    /// Adds one to the `count` of the row of `aggregateKey`, in one atomic statement; the first failure
    /// of the key inserts the row with its own time, session and address.
    func countFailure(
        _ kind: SecurityEvent.Kind, user: UUID?, session: UUID?, ip: String?, now: Double, aggregateKey key: String,
        on database: any Database
    ) async throws {
        try await database.sql.raw(
            """
            INSERT INTO security_events (id, user_id, type, session_id, ip, created_at, count, aggregate_key)
            VALUES (\(bind: UUID()), \(bind: user), \(bind: kind.rawValue), \(bind: session), \(bind: ip), \(bind: now), 1, \(bind: key))
            ON CONFLICT (aggregate_key) DO UPDATE SET count = security_events.count + 1
            """
        ).run()
    }

    /// `user`'s events newest first (time, then id), at most `limit`, only those before `position` when given.
    func page(
        of user: UUID, before position: (createdAt: Double, id: UUID)?, limit: Int, on database: any Database
    ) async throws -> [SecurityEvent] {
        var query = SecurityEvent.query(on: database).filter(\.$userID == user)
        if let position {
            query = query.group(.or) { older in
                older.filter(\.$createdAt < position.createdAt)
                older.group(.and) { same in
                    same.filter(\.$createdAt == position.createdAt)
                    same.filter(\.$id < position.id)
                }
            }
        }
        return try await query.sort(\.$createdAt, .descending).sort(\.$id, .descending).limit(limit).all()
    }

    /// `user`'s events newest first, the latest `limit` of them (every one when nil).
    func newest(of user: UUID, limit: Int? = nil, on database: any Database) async throws -> [SecurityEvent] {
        var query = SecurityEvent.query(on: database).filter(\.$userID == user).sort(\.$createdAt, .descending)
        if let limit { query = query.limit(limit) }
        return try await query.all()
    }
}
