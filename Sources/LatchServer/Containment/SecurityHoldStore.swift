import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The statements on `security_holds` (issue 44 §1): a user's one hold started or extended, read, and
/// deleted (lifted, or ended once it ran out). Which changes start one and what it pauses is
/// `SecurityHolds`' to say.
struct SecurityHoldStore: Sendable {
    /// Starts `user`'s hold for `reason` from `now` to `until`, or extends the one in its row to the later
    /// end with the later change's reason, in one conditional upsert.
    func start(_ reason: SecurityHoldReason, user: UUID, now: Double, until: Double, on database: any Database)
        async throws
    {
        try await database.sql.raw(
            """
            INSERT INTO security_holds (user_id, reason, started_at, hold_until)
            VALUES (\(bind: user), \(bind: reason.rawValue), \(bind: now), \(bind: until))
            ON CONFLICT (user_id) DO UPDATE SET
              started_at = CASE WHEN security_holds.hold_until <= excluded.started_at THEN excluded.started_at
                ELSE security_holds.started_at END,
              reason = CASE WHEN security_holds.hold_until <= excluded.hold_until THEN excluded.reason
                ELSE security_holds.reason END,
              hold_until = CASE WHEN security_holds.hold_until < excluded.hold_until THEN excluded.hold_until
                ELSE security_holds.hold_until END
            """
        ).run()
    }

    /// `user`'s hold as its row holds it (running or run out), if there is one.
    func find(of user: UUID, on database: any Database) async throws -> SecurityHolds.Running? {
        guard
            let row = try await database.sql.raw(
                "SELECT reason, started_at, hold_until FROM security_holds WHERE user_id = \(bind: user)"
            ).first()
        else { return nil }
        return SecurityHolds.Running(
            reason: try row.decode(column: "reason", as: String.self),
            startedAt: try row.decode(column: "started_at", as: Double.self),
            holdUntil: try row.decode(column: "hold_until", as: Double.self))
    }

    /// Deletes `user`'s hold; its reason, or nil when there was none.
    func delete(of user: UUID, on database: any Database) async throws -> String? {
        try await database.sql.raw(
            "DELETE FROM security_holds WHERE user_id = \(bind: user) RETURNING reason"
        ).first()?.decode(column: "reason", as: String.self)
    }

    /// Deletes `user`'s hold if it ran out by `now`; its reason and end, or nil (only the delete that
    /// finds the row gets them).
    func deleteEnded(of user: UUID, now: Double, on database: any Database) async throws
        -> (reason: String, holdUntil: Double)?
    {
        guard
            let ended = try await database.sql.raw(
                """
                DELETE FROM security_holds WHERE user_id = \(bind: user) AND hold_until <= \(bind: now)
                RETURNING reason, hold_until
                """
            ).first()
        else { return nil }
        return (
            try ended.decode(column: "reason", as: String.self), try ended.decode(column: "hold_until", as: Double.self)
        )
    }
}
