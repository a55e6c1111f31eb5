import FluentKit
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import LatchCore
import SQLKit

/// The refresh chain's statements (C5, C6, issue 44 §1): a session's first row with its first token, the
/// presented token with its session and user, the rotation, the grace claim and the replay's revocation.
/// The hot ones are prepared once per connection in the dialect the configuration chose where the
/// database was opened (`databaseKind`), never found out by a cast. `RefreshTokenRotation` holds the rules.
struct RefreshTokenStore: Sendable {
    /// SQLite and PostgreSQL rotate in different statements.
    let databaseKind: DatabaseKind
    /// The connections that keep the hot statements prepared (issue 44 §4); a call inside a transaction
    /// stays on the transaction's connection. nil: every statement through the database.
    var prepared: PreparedConnections? = nil

    /// A presented refresh token's place in its session's rotation, with the session and its user (as the
    /// token's answer shows it).
    struct Presented {
        let counter: Int
        let session: RotatingSession
        let user: UserInfo
    }

    /// Inserts `session` only while its user is not deleted, in one statement: a sign-in that raced the
    /// account's deletion (checked its password, then found the account gone) gets `false` and no session.
    /// On PostgreSQL the user row is read `FOR SHARE`, which waits for a deletion in progress (it updates
    /// that row first) and then sees it; a deletion that starts later waits for this insert and revokes the
    /// session it made. SQLite runs one writer at a time.
    func insert(_ session: Session, on database: any Database) async throws -> Bool {
        let lock: SQLQueryString = databaseKind == .postgresql ? " FOR SHARE" : ""
        let rows = try await database.sql.raw(
            """
            INSERT INTO sessions (id, user_id, sealed_secret, counter, refresh_expires_at, created_at, signed_in_at,
              last_active_at, device_id, device_name, device_model, platform, ip, dpop_jkt)
            SELECT \(bind: session.id), \(bind: session.userID), \(bind: session.sealedSecret), \(bind: session.counter),
              \(bind: session.refreshExpiresAt), \(bind: session.createdAt), \(bind: session.signedInAt),
              \(bind: session.lastActiveAt), \(bind: session.deviceID), \(bind: session.deviceName),
              \(bind: session.deviceModel), \(bind: session.platform), \(bind: session.ip), \(bind: session.dpopJKT)
            WHERE EXISTS (SELECT 1 FROM users WHERE id = \(bind: session.userID) AND deleted_at IS NULL\(lock))
            RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    /// Records token number `counter` of `session` (by its hash); a hash already recorded is left as it is.
    func record(_ tokenHash: String, session: UUID, counter: Int, now: Double, on database: any Database)
        async throws
    {
        try await database.sql.raw(
            """
            INSERT INTO refresh_tokens (token_hash, session_id, counter, created_at)
            VALUES (\(bind: tokenHash), \(bind: session), \(bind: counter), \(bind: now))
            ON CONFLICT (token_hash) DO NOTHING
            """
        ).run()
    }

    /// The token whose hash is `hash` with its session and user (one read, the three joined).
    func presented(_ hash: String, on database: any Database) async throws -> Presented? {
        switch databaseKind {
        case .sqlite:
            let rows = try await sqliteRows(SQLiteRefreshStatements.find, [.text(hash)], on: database)
            return try rows.first.map(Presented.init(sqlite:))
        case .postgresql:
            let rows = try await postgresRows(PostgresRefreshStatements.Find(tokenHash: hash), on: database)
            return rows.first.map(Presented.init)
        }
    }

    /// Moves the session's counter from `counter` to the next, if it is still there and the session is not
    /// revoked, and records the next token (`hash`) in the same statement; returns whether it moved.
    func rotate(
        session sessionID: UUID, from counter: Int, recording hash: String, expires: Double, now: Double,
        on database: any Database
    ) async throws -> Bool {
        let next = counter + 1
        switch databaseKind {
        case .sqlite:
            let rows = try await sqliteRows(
                SQLiteRefreshStatements.rotate,
                SQLiteRefreshStatements.rotateBinds(
                    nextTokenHash: hash, sessionID: sessionID, next: next, now: now, expires: expires, counter: counter),
                on: database)
            return !rows.isEmpty
        case .postgresql:
            // One prepared statement, so one round trip and one commit (an fsync).
            let rows = try await postgresRows(
                PostgresRefreshStatements.Rotate(
                    nextTokenHash: hash, sessionID: sessionID, next: next, now: now, expires: expires, counter: counter),
                on: database)
            return !rows.isEmpty
        }
    }

    /// `sql`'s rows, each its columns' values in order: on a prepared connection, or on `database` when it
    /// is a transaction (which holds SQLite's write lock on its own connection) or none is open.
    private func sqliteRows(_ sql: String, _ binds: [SQLiteData], on database: any Database) async throws
        -> [[SQLiteData]]
    {
        if let prepared = prepared?.sqlite, !database.inTransaction {
            return try await LatchTracing.storeCall(StoreCallSpan(sql: sql), system: "sqlite") {
                try await prepared.rows(sql, binds)
            }
        }
        return try await database.executeSQLite(sql, binds)?.map { $0.columns.map(\.data) } ?? []
    }

    /// `statement`'s rows: on the prepared client, or on `database` when it is a transaction or there is none.
    private func postgresRows<Statement: PostgresPreparedStatement>(_ statement: Statement, on database: any Database)
        async throws -> [Statement.Row] where Statement.Row: Sendable
    {
        if let prepared = prepared?.postgres, !database.inTransaction {
            return try await LatchTracing.storeCall(StoreCallSpan(sql: Statement.sql), system: "postgresql") {
                try await prepared.rows(statement)
            }
        }
        return try await database.executePrepared(statement) ?? []
    }

    /// Takes the one grace answer of the session's previous token, if it is still unused and the session is
    /// still at `counter`: one conditional update, so of any number of duplicates exactly one wins.
    func claimGrace(session sessionID: UUID, counter: Int, on database: any Database) async throws -> Bool {
        try await !database.sql.raw(
            """
            UPDATE sessions SET refresh_grace_counter = \(bind: counter)
            WHERE id = \(bind: sessionID) AND counter = \(bind: counter) AND revoked_at IS NULL
              AND (refresh_grace_counter IS NULL OR refresh_grace_counter <> \(bind: counter))
            RETURNING id
            """
        ).all().isEmpty
    }

    /// Session `id` as it is now (after another request rotated it).
    func reload(_ id: UUID, on database: any Database) async throws -> RotatingSession? {
        try await Session.find(id, on: database).map(RotatingSession.init)
    }

    /// Revokes session `id` at `now` (a replayed token's, or one whose account refused the sign-in).
    func revoke(_ id: UUID, now: Double, on database: any Database) async throws {
        try await database.sql.raw(
            "UPDATE sessions SET revoked_at = \(bind: now) WHERE id = \(bind: id) AND revoked_at IS NULL"
        ).run()
    }
}

extension RefreshTokenStore.Presented {
    /// The same columns read from SQLite, in the same order (`SQLiteRefreshStatements.find`'s).
    init(sqlite row: [SQLiteData]) throws {
        guard row.count == 14 else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a refresh row has 14 columns"))
        }
        self.init(
            (
                try row.value(0), try row.uuid(1), try row.uuid(2), try row.value(3), try row.value(4),
                try row.optionalValue(5), try row.value(6), try row.optionalValue(7), try row.value(8),
                try row.optionalValue(9), try row.optionalValue(10), try row.value(11), try row.optionalValue(12),
                try row.value(13)
            ))
    }

    /// Only the columns a refresh reads, as values: Fluent's whole-model decoding was about 4 % of latchd's CPU
    /// on this path, and building its models field by field another 4 %.
    init(_ row: PostgresRefreshStatements.Find.Row) {
        self.init(
            counter: row.0,
            session: RotatingSession(
                id: row.1, userID: row.2, sealedSecret: row.3, counter: row.4, rotatedAt: row.5,
                refreshExpiresAt: row.6, revokedAt: row.7, createdAt: row.8, dpopJKT: row.9),
            user: UserInfo(
                id: UUIDText.lowercase(row.2), email: row.10, emailVerified: row.11, nickname: row.12,
                createdAt: Date(timeIntervalSince1970: row.13)))
    }
}
