import FluentKit
import Foundation
import LatchCore
import SQLKit

/// Frozen accounts (issue 19 §3, "this wasn't me"): one tap from a security mail's freeze link, the
/// signed-in owner, or an operator runs the security reset and marks the account frozen; every grant
/// then answers 403 ACCOUNT_FROZEN. Nothing else about the account changes. Freezing is easy,
/// unfreezing is not: the owner recovers with a password reset by email code (plus the TOTP or a
/// recovery code when 2FA is on), or an operator unfreezes; either starts a security hold (`unfrozen`).
///
/// Ordering makes it race-free as `AccountDisabling` is: `freeze` marks `users.frozen_at` and then
/// ends every session, in one transaction that writes the user's row first; a sign-in creates its
/// session first and then reads `frozen_at` (`RefreshTokenRotation.start`).
enum AccountFreezing {
    /// Who froze (or unfroze) the account: the `frozen_by` column and the events' `actor`.
    enum Actor: String, Sendable {
        case owner
        case freezeLink = "freeze_link"
        case `operator`
    }

    /// Throws 403 ACCOUNT_FROZEN when `user` (as loaded) is frozen.
    static func refuse(_ user: User) throws {
        if user.frozenAt != nil { throw LatchError.accountFrozen }
    }

    /// A security mail's one-time freeze link (`POST /v1/freeze`): a valid, unused, unexpired `token`
    /// freezes its account (once); any other does nothing, and the caller answers alike.
    static func freeze(byLink token: String, ip: String?, latch: LatchServices, on database: any Database)
        async throws
    {
        if let userID = try await FreezeTokens.use(token, now: latch.clock.epochSeconds, on: database) {
            try await freeze(userID, by: .freezeLink, ip: ip, latch: latch, on: database)
        }
    }

    /// Freezes the account of `userID` (keeping the first time and actor when it already was) and runs
    /// the security reset, also when it was frozen already (a session that slipped in ends too). Records
    /// `account_frozen` (actor, ip) and `security_reset`. Returns whether it was not frozen before; false
    /// too for a deleted account, which is left alone.
    @discardableResult
    static func freeze(
        _ userID: UUID, by actor: Actor, session: UUID? = nil, ip: String?, latch: LatchServices,
        on database: any Database
    ) async throws -> Bool {
        let now = latch.clock.epochSeconds
        return try await latch.revocation.committing(on: database) { database in
            let changed = try await database.sql.raw(
                """
                UPDATE users SET frozen_at = \(bind: now), frozen_by = \(bind: actor.rawValue)
                WHERE id = \(bind: userID) AND frozen_at IS NULL AND deleted_at IS NULL RETURNING id
                """
            ).all()
            let frozenBefore = changed.isEmpty ? try await isFrozen(userID, on: database) : false
            guard !changed.isEmpty || frozenBefore else { return false }
            try await latch.securityReset(
                .everything, user: userID, session: session, ip: ip, actor: actor.rawValue, on: database)
            if !changed.isEmpty {
                try await latch.securityChanges.apply(
                    SecurityChange(.frozen),
                    by: SecurityChangeActor(
                        user: userID, session: session, ip: ip, language: .en, actor: actor.rawValue),
                    on: database)
            }
            return !changed.isEmpty
        }
    }

    /// Unfreezes the account, records `account_unfrozen` and starts a security hold (reason `unfrozen`),
    /// on `database` (a transaction); returns whether it was frozen. The freeze links minted before the
    /// freeze expire (issue 28 §2): a link from a mail the thief may have read cannot freeze the
    /// recovered account again; links minted since (the reset's own mail) keep working.
    @discardableResult
    static func unfreeze(
        _ userID: UUID, by actor: Actor, ip: String?, latch: LatchServices, on database: any Database
    ) async throws -> Bool {
        let now = latch.clock.epochSeconds
        guard
            let frozenAt = try await database.sql.raw("SELECT frozen_at FROM users WHERE id = \(bind: userID)").first()?
                .decode(column: "frozen_at", as: Double?.self)
        else { return false }
        let changed = try await database.sql.raw(
            """
            UPDATE users SET frozen_at = NULL, frozen_by = NULL
            WHERE id = \(bind: userID) AND frozen_at IS NOT NULL RETURNING id
            """
        ).all()
        guard !changed.isEmpty else { return false }
        try await database.sql.raw(
            """
            UPDATE freeze_tokens SET expires_at = \(bind: now)
            WHERE user_id = \(bind: userID) AND created_at <= \(bind: frozenAt) AND used_at IS NULL AND expires_at > \(bind: now)
            """
        ).run()
        try await latch.securityChanges.apply(
            SecurityChange(.unfrozen),
            by: SecurityChangeActor(user: userID, ip: ip, language: .en, actor: actor.rawValue),
            on: database)
        return true
    }

    /// Whether the account is frozen now (one read of the database, not of a loaded model).
    static func isFrozen(_ userID: UUID, on database: any Database) async throws -> Bool {
        let row = try await database.sql.raw("SELECT frozen_at FROM users WHERE id = \(bind: userID)").first()
        return try row?.decode(column: "frozen_at", as: Double?.self) != nil
    }

    /// Whether the refresh token (hashed: `tokenHash`) belongs to a session of a frozen account: a
    /// refresh that found its session ended then answers ACCOUNT_FROZEN rather than AUTH_004, so the app
    /// can tell the owner how to recover. Read only on that rare path, never on a rotation.
    static func ownsFrozenAccount(refreshTokenHash tokenHash: String, on database: any Database) async throws -> Bool {
        let row = try await database.sql.raw(
            """
            SELECT u.frozen_at FROM refresh_tokens r
            JOIN sessions s ON s.id = r.session_id
            JOIN users u ON u.id = s.user_id
            WHERE r.token_hash = \(bind: tokenHash)
            """
        ).first()
        return try row?.decode(column: "frozen_at", as: Double?.self) != nil
    }

    /// The refusal a sign-in gets after its session was created (disabled before frozen), if any.
    static func signInRefusal(of userID: UUID, on database: any Database) async throws -> LatchError? {
        guard
            let row = try await database.sql.raw(
                "SELECT disabled_at, frozen_at FROM users WHERE id = \(bind: userID)"
            ).first()
        else { return nil }
        if try row.decode(column: "disabled_at", as: Double?.self) != nil { return .accountDisabled }
        if try row.decode(column: "frozen_at", as: Double?.self) != nil { return .accountFrozen }
        return nil
    }
}

extension LatchError {
    /// 403 ACCOUNT_FROZEN: the account is frozen; no grant signs it in until the owner recovers it.
    static let accountFrozen = LatchError(.accountFrozen)
}
