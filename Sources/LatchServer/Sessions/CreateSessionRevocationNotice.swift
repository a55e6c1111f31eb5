import FluentKit
import SQLKit

/// On PostgreSQL, every revocation of a session (and every deleted session) is announced with
/// `NOTIFY latch_session_revoked, '<session id>'`, by a trigger, so every path that ends sessions
/// (sign-out, password reset, refresh-token replay, anything added later) reaches the other latchd
/// instances at once and without an extra round trip. The refresh hot path never fires it: it does
/// not set `revoked_at`. SQLite has no other instances to tell; there this migration does nothing.
struct CreateSessionRevocationNotice: AsyncMigration {
    let kind: DatabaseKind

    func prepare(on database: any Database) async throws {
        guard kind == .postgresql else { return }
        try await database.sql.raw(
            """
            CREATE OR REPLACE FUNCTION latch_session_revoked_notify() RETURNS trigger AS $$
            BEGIN
              IF TG_OP = 'DELETE' THEN
                PERFORM pg_notify('\(unsafeRaw: SessionRevocationListener.channel)', OLD.id::text);
                RETURN OLD;
              END IF;
              PERFORM pg_notify('\(unsafeRaw: SessionRevocationListener.channel)', NEW.id::text);
              RETURN NEW;
            END $$ LANGUAGE plpgsql
            """
        ).run()
        try await database.sql.raw(
            """
            CREATE TRIGGER sessions_revoked_notify AFTER UPDATE OF revoked_at ON sessions FOR EACH ROW
            WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
            EXECUTE FUNCTION latch_session_revoked_notify()
            """
        ).run()
        try await database.sql.raw(
            """
            CREATE TRIGGER sessions_deleted_notify AFTER DELETE ON sessions FOR EACH ROW
            EXECUTE FUNCTION latch_session_revoked_notify()
            """
        ).run()
    }

    func revert(on database: any Database) async throws {
        guard kind == .postgresql else { return }
        try await database.sql.raw("DROP TRIGGER IF EXISTS sessions_deleted_notify ON sessions").run()
        try await database.sql.raw("DROP TRIGGER IF EXISTS sessions_revoked_notify ON sessions").run()
        try await database.sql.raw("DROP FUNCTION IF EXISTS latch_session_revoked_notify()").run()
    }
}
