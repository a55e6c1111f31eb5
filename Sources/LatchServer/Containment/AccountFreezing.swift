import FluentKit
import Foundation
import LatchCore

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
            let changed = try await latch.accounts.freeze(userID, by: actor.rawValue, now: now, on: database)
            let frozenBefore = changed ? false : (try await latch.accounts.frozenAt(userID, on: database) ?? nil) != nil
            guard changed || frozenBefore else { return false }
            try await latch.securityReset(
                .everything, user: userID, session: session, ip: ip, actor: actor.rawValue, on: database)
            if changed {
                try await latch.securityChanges.apply(
                    SecurityChange(.frozen),
                    by: SecurityChangeActor(
                        user: userID, session: session, ip: ip, language: .en, actor: actor.rawValue),
                    on: database)
            }
            return changed
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
        guard let frozenAt = try await latch.accounts.frozenAt(userID, on: database) ?? nil,
            try await latch.accounts.unfreeze(userID, on: database)
        else { return false }
        try await FreezeTokens.expire(mintedBy: frozenAt, of: userID, now: now, on: database)
        try await latch.securityChanges.apply(
            SecurityChange(.unfrozen),
            by: SecurityChangeActor(user: userID, ip: ip, language: .en, actor: actor.rawValue),
            on: database)
        return true
    }
}

extension LatchError {
    /// 403 ACCOUNT_FROZEN: the account is frozen; no grant signs it in until the owner recovers it.
    static let accountFrozen = LatchError(.accountFrozen)
}
