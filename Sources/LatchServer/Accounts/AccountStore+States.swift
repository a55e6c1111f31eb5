import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The account's states on its row (`AccountStore`): frozen (issue 19 §3), disabled (issue 12 §2),
/// deleted (a tombstone, issue 12) and an operator's lifted hold. Each change is one conditional UPDATE,
/// so two at once change it once.
extension AccountStore {
    /// Marks the account frozen by `actor` unless it already was or is deleted; whether it changed.
    func freeze(_ id: UUID, by actor: String, now: Double, on database: any Database) async throws -> Bool {
        defer { profiles.forget(id) }
        return try await !database.sql.raw(
            """
            UPDATE users SET frozen_at = \(bind: now), frozen_by = \(bind: actor)
            WHERE id = \(bind: id) AND frozen_at IS NULL AND deleted_at IS NULL RETURNING id
            """
        ).all().isEmpty
    }

    /// Clears the freeze; whether it was frozen.
    func unfreeze(_ id: UUID, on database: any Database) async throws -> Bool {
        defer { profiles.forget(id) }
        return try await !database.sql.raw(
            """
            UPDATE users SET frozen_at = NULL, frozen_by = NULL
            WHERE id = \(bind: id) AND frozen_at IS NOT NULL RETURNING id
            """
        ).all().isEmpty
    }

    /// When the account was frozen: `.some(nil)` when it is not, nil when there is no such account.
    func frozenAt(_ id: UUID, on database: any Database) async throws -> Double?? {
        guard let row = try await database.sql.raw("SELECT frozen_at FROM users WHERE id = \(bind: id)").first()
        else { return nil }
        return .some(try row.decode(column: "frozen_at", as: Double?.self))
    }

    /// Marks the account disabled (keeping the first time); whether it was enabled.
    func disable(_ id: UUID, now: Double, on database: any Database) async throws -> Bool {
        defer { profiles.forget(id) }
        return try await !database.sql.raw(
            """
            UPDATE users SET disabled_at = \(bind: now) WHERE id = \(bind: id) AND disabled_at IS NULL RETURNING id
            """
        ).all().isEmpty
    }

    /// Enables the account again; whether it was disabled.
    func enable(_ id: UUID, on database: any Database) async throws -> Bool {
        defer { profiles.forget(id) }
        return try await !database.sql.raw(
            """
            UPDATE users SET disabled_at = NULL WHERE id = \(bind: id) AND disabled_at IS NOT NULL RETURNING id
            """
        ).all().isEmpty
    }

    /// The refusal a sign-in gets after its session was created (disabled before frozen), if any.
    func signInRefusal(of id: UUID, on database: any Database) async throws -> LatchError? {
        guard
            let row = try await database.sql.raw(
                "SELECT disabled_at, frozen_at FROM users WHERE id = \(bind: id)"
            ).first()
        else { return nil }
        if try row.decode(column: "disabled_at", as: Double?.self) != nil { return .accountDisabled }
        if try row.decode(column: "frozen_at", as: Double?.self) != nil { return .accountFrozen }
        return nil
    }

    /// Whether the refresh token (hashed: `tokenHash`) belongs to a session of a frozen account: a
    /// refresh that found its session ended then answers ACCOUNT_FROZEN rather than AUTH_004, so the app
    /// can tell the owner how to recover. Read only on that rare path, never on a rotation.
    func isFrozen(owningRefreshTokenHash tokenHash: String, on database: any Database) async throws -> Bool {
        let row = try await database.sql.raw(
            """
            SELECT u.frozen_at FROM users u
            JOIN sessions s ON s.user_id = u.id
            JOIN refresh_tokens r ON r.session_id = s.id
            WHERE r.token_hash = \(bind: tokenHash)
            """
        ).first()
        return try row?.decode(column: "frozen_at", as: Double?.self) != nil
    }

    /// What `FactorSeasoning` reads: factors added before an operator's lift of a hold may answer held actions.
    func recordHoldLifted(of id: UUID, now: Double, on database: any Database) async throws {
        defer { profiles.forget(id) }
        try await database.sql.raw("UPDATE users SET hold_lifted_at = \(bind: now) WHERE id = \(bind: id)").run()
    }

    /// Marks a live account deleted; its address then, or nil when it was deleted already or never was
    /// (`.some(nil)`: deleted now, it had no address). Marking the row first locks it (PostgreSQL) and
    /// makes the deletion happen once.
    func markDeleted(_ id: UUID, now: Double, on database: any Database) async throws -> String?? {
        defer { profiles.forget(id) }
        guard
            let marked = try await database.sql.raw(
                """
                UPDATE users SET deleted_at = \(bind: now) WHERE id = \(bind: id) AND deleted_at IS NULL RETURNING email
                """
            ).first()
        else { return nil }
        return .some(try marked.decode(column: "email", as: String?.self))
    }

    /// Clears the personal data of a deleted account's row, which stays as a tombstone.
    func scrub(_ id: UUID, on database: any Database) async throws {
        defer { profiles.forget(id) }
        try await database.sql.raw(
            """
            UPDATE users SET email = NULL, email_verified = \(bind: false), password_hash = NULL, nickname = NULL,
              anti_phishing_code = NULL, previous_email = NULL
            WHERE id = \(bind: id)
            """
        ).run()
    }
}
