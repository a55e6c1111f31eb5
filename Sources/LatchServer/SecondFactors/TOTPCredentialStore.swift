import FluentKit
import Foundation
import SQLKit

/// The statements on `totp_credentials` (D1, issue 44 §1): a user's secret read, a pending one written,
/// its activation, a time step used once, and its removal. Matching codes and the enrolment's lifetime
/// are `TOTPService`'s.
struct TOTPCredentialStore: Sendable {
    /// `user`'s credential, pending or active.
    func find(of user: UUID, on database: any Database) async throws -> TOTPCredential? {
        try await TOTPCredential.find(user, on: database)
    }

    /// Writes `sealed` as `user`'s pending secret (replacing a pending one) in one conditional upsert;
    /// false when the user's 2FA is active (nothing written).
    func writePending(sealed: String, of user: UUID, session: UUID?, now: Double, on database: any Database)
        async throws -> Bool
    {
        let rows = try await database.sql.raw(
            """
            INSERT INTO totp_credentials (user_id, sealed_secret, active, last_used_step, created_at, session_id)
            VALUES (\(bind: user), \(bind: sealed), \(bind: false), -1, \(bind: now), \(bind: session))
            ON CONFLICT (user_id) DO UPDATE SET
              sealed_secret = excluded.sealed_secret, last_used_step = -1, created_at = excluded.created_at,
              session_id = excluded.session_id
            WHERE totp_credentials.active = \(bind: false)
            RETURNING user_id
            """
        ).all()
        return !rows.isEmpty
    }

    /// Activates `user`'s pending secret `sealed` with its first used `step`; false when it is no longer
    /// that pending secret (a concurrent activation won, or a new enrolment replaced it).
    func activate(_ user: UUID, sealed: String, step: Int, on database: any Database) async throws -> Bool {
        let activated = try await database.sql.raw(
            """
            UPDATE totp_credentials SET active = \(bind: true), last_used_step = \(bind: step)
            WHERE user_id = \(bind: user) AND active = \(bind: false) AND sealed_secret = \(bind: sealed)
            RETURNING user_id
            """
        ).all()
        return !activated.isEmpty
    }

    /// Moves `user`'s last used step to `step` when it is newer; false when it is not (a replay).
    func useStep(_ step: Int, of user: UUID, on database: any Database) async throws -> Bool {
        let rows = try await database.sql.raw(
            """
            UPDATE totp_credentials SET last_used_step = \(bind: step)
            WHERE user_id = \(bind: user) AND active = \(bind: true) AND last_used_step < \(bind: step)
            RETURNING user_id
            """
        ).all()
        return !rows.isEmpty
    }

    /// Removes `user`'s credential.
    func remove(of user: UUID, on database: any Database) async throws {
        try await TOTPCredential.query(on: database).filter(\.$id == user).delete()
    }
}
