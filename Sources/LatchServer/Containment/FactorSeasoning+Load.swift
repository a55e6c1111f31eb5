import FluentKit
import Foundation
import LatchCore
import SQLKit

extension FactorSeasoning {
    /// The seasoning that judges `user`'s factors for `action`, or nil when no hold can pause `action`
    /// (holds off, or an action `LATCH_HOLD_ACTIONS` does not list): then every factor may answer.
    static func forHeldAction(
        _ action: String, of user: UUID, latch: LatchServices, now: Double, on database: any Database
    ) async throws -> FactorSeasoning? {
        let holds = latch.holds
        guard holds.pauses(action),
            let account = try await database.sql.raw(
                "SELECT created_at, registering_session_id, hold_lifted_at FROM users WHERE id = \(bind: user)"
            ).first()
        else { return nil }
        return FactorSeasoning(
            holdLength: holds.length, now: now,
            accountCreatedAt: try account.decode(column: "created_at", as: Double.self),
            registeringSession: try account.decode(column: "registering_session_id", as: UUID?.self),
            liftedAt: try account.decode(column: "hold_lifted_at", as: Double?.self))
    }

    /// The provenance of `user`'s factor of `kind` where one row stands for it (TOTP with its recovery
    /// codes, the fund password, the email address); nil when the user has none. Device keys and passkeys
    /// are judged one by one (`DeviceCredential.provenance`, `Passkey.provenance`). The switch is exhaustive,
    /// so a new kind cannot be offered for a held action without saying how old it is.
    static func provenance(of kind: VerificationMethodKind, user: UUID, on database: any Database) async throws
        -> Provenance?
    {
        let query: SQLQueryString
        switch kind {
        case .biometric, .passkey:
            return nil
        case .totp:
            query = """
                SELECT created_at AS added_at, session_id FROM totp_credentials
                WHERE user_id = \(bind: user) AND active = \(bind: true)
                """
        case .fundPassword:
            query = "SELECT updated_at AS added_at, session_id FROM fund_passwords WHERE user_id = \(bind: user)"
        case .emailCode:
            query = """
                SELECT COALESCE(email_added_at, created_at) AS added_at, email_session_id AS session_id FROM users
                WHERE id = \(bind: user) AND email IS NOT NULL
                """
        }
        guard let row = try await database.sql.raw(query).first() else { return nil }
        return Provenance(
            addedAt: try row.decode(column: "added_at", as: Double.self),
            session: try row.decode(column: "session_id", as: UUID?.self))
    }

    /// Whether `user`'s factor of `kind` (one row) may answer: true without a seasoning (no hold can pause
    /// the action) or without such a factor (its own check refuses it then).
    func admits(_ kind: VerificationMethodKind, of user: UUID, on database: any Database) async throws -> Bool {
        guard let provenance = try await Self.provenance(of: kind, user: user, on: database) else { return true }
        return mayAnswerHeldAction(provenance)
    }
}

extension DeviceCredential {
    /// When and by which session the key was bound (issue 28 §2).
    var provenance: FactorSeasoning.Provenance { .init(addedAt: createdAt, session: sessionID) }
}

extension Passkey {
    /// When and by which session the passkey was added (issue 28 §2).
    var provenance: FactorSeasoning.Provenance { .init(addedAt: createdAt, session: sessionID) }
}
