import FluentPostgresDriver
import Foundation

/// The refresh hot path's two statements as named PostgreSQL prepared statements: parsed and planned
/// once per connection instead of on every refresh. (SQLite and other paths use SQLKit.)
enum PostgresRefreshStatements {
    /// A presented token's counter, its session's rotation columns and its user (see
    /// `RefreshTokenRotation.Presented`).
    struct Find: PostgresPreparedStatement {
        static let name = "latch_refresh_find_v3"
        static let sql = """
            SELECT r.counter, s.id, s.user_id, s.sealed_secret, s.counter, s.rotated_at, s.refresh_expires_at, s.revoked_at,
              s.created_at, s.dpop_jkt, u.email, u.email_verified, u.nickname, u.created_at
            FROM refresh_tokens r
            JOIN sessions s ON s.id = r.session_id
            JOIN users u ON u.id = s.user_id
            WHERE r.token_hash = $1
            """
        typealias Row = (
            Int, UUID, UUID, String, Int, Double?, Double, Double?, Double, String?, String?, Bool, String?, Double
        )

        let tokenHash: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(tokenHash)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }

    /// Moves the session's counter on and records the next token, in one statement (one commit). The token is
    /// recorded only when the counter moved, as SQLite's trigger does (`AddSQLiteRotationTrigger`): before (v1),
    /// it was inserted even when the session had just been revoked, so a refresh racing an account deletion
    /// could leave a token row behind the deletion's erasure.
    struct Rotate: PostgresPreparedStatement {
        static let name = "latch_refresh_rotate_v2"
        static let sql = """
            WITH moved AS (
              UPDATE sessions SET counter = $3, rotated_at = $4, refresh_expires_at = $5, last_active_at = $4
              WHERE id = $2 AND counter = $6 AND revoked_at IS NULL
              RETURNING id
            ), recorded AS (
              INSERT INTO refresh_tokens (token_hash, session_id, counter, created_at)
              SELECT $1, id, $3, $4 FROM moved
              ON CONFLICT (token_hash) DO NOTHING
            )
            SELECT id FROM moved
            """
        typealias Row = UUID

        let nextTokenHash: String
        let sessionID: UUID
        let next: Int
        let now: Double
        let expires: Double
        let counter: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(nextTokenHash)
            bindings.append(sessionID)
            bindings.append(next)
            bindings.append(now)
            bindings.append(expires)
            bindings.append(counter)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> UUID {
            try row.decode(UUID.self)
        }
    }
}

extension Database {
    /// Runs `statement` on one of this PostgreSQL database's connections (prepared there on first
    /// use) and returns its rows; `nil` when this is not a PostgreSQL database.
    func executePrepared<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row]?
    where Statement.Row: Sendable {
        guard let postgres = self as? any PostgresDatabase else { return nil }
        let logger = self.logger
        return try await LatchTracing.storeCall(StoreCallSpan(sql: Statement.sql), system: "postgresql") {
            try await postgres.withConnection { connection in
                connection.eventLoop.makeFutureWithTask {
                    var rows: [Statement.Row] = []
                    for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
                    return rows
                }
            }.get()
        }
    }
}
