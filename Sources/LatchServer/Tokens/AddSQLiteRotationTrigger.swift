import FluentKit
import SQLKit

/// On SQLite, a rotation is one statement (issue 21): the `UPDATE` that moves a session's counter also names
/// the new token's hash (`sessions.rotated_token_hash`), and a trigger records it in `refresh_tokens` in the
/// same statement, so the token exists exactly when the counter moved. Before, SQLite ran the insert and the
/// update as two statements (it cannot write in a `WITH` clause as PostgreSQL's one prepared statement does);
/// each statement is a trip through the connection pool and the blocking thread pool. PostgreSQL: nothing.
struct AddSQLiteRotationTrigger: AsyncMigration {
    let kind: DatabaseKind

    func prepare(on database: any Database) async throws {
        guard kind == .sqlite else { return }
        try await database.sql.raw("ALTER TABLE sessions ADD COLUMN rotated_token_hash TEXT").run()
        try await database.sql.raw(
            """
            CREATE TRIGGER sessions_record_rotated_token AFTER UPDATE OF counter ON sessions FOR EACH ROW
            WHEN NEW.rotated_token_hash IS NOT NULL AND NEW.counter <> OLD.counter
            BEGIN
              INSERT OR IGNORE INTO refresh_tokens (token_hash, session_id, counter, created_at)
              VALUES (NEW.rotated_token_hash, NEW.id, NEW.counter, NEW.rotated_at);
            END
            """
        ).run()
    }

    func revert(on database: any Database) async throws {
        guard kind == .sqlite else { return }
        try await database.sql.raw("DROP TRIGGER IF EXISTS sessions_record_rotated_token").run()
        try await database.sql.raw("ALTER TABLE sessions DROP COLUMN rotated_token_hash").run()
    }
}
