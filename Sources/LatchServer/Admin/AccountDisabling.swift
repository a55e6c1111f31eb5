import FluentKit
import Foundation

/// Disabled accounts (issue 12 §2): an operator's switch that refuses every grant with 403
/// ACCOUNT_DISABLED and ends the account's sessions at once, on every instance.
///
/// Ordering makes it race-free without a lock: `disable` sets `users.disabled_at` first and then
/// revokes every session; a sign-in creates its session first and then reads `disabled_at`
/// (`RefreshTokenRotation.start`). Whichever comes second sees the other's write, so no session
/// started around a disable survives it.
enum AccountDisabling {
    /// Throws 403 ACCOUNT_DISABLED when `user` (as loaded) is disabled.
    static func refuse(_ user: User) throws {
        if user.disabledAt != nil { throw LatchError.accountDisabled }
    }

    /// Disables the account (keeping the first time when it already was) and runs the security reset
    /// (issue 19 §1: every session, device key, passkey, pending challenge and unredeemed proof ends);
    /// returns whether it was enabled before.
    @discardableResult
    static func disable(_ userID: UUID, latch: LatchServices, ip: String?, on database: any Database) async throws
        -> Bool
    {
        try await latch.revocation.committing(on: database) { database in
            let changed = try await latch.accounts.disable(userID, now: latch.clock.epochSeconds, on: database)
            // Always, also when it was disabled already: a session that slipped in is ended too.
            try await latch.securityReset(.everything, user: userID, ip: ip, actor: "operator", on: database)
            return changed
        }
    }

    /// Enables the account again; its ended sessions stay ended (the owner signs in again).
    /// Returns whether it was disabled before.
    @discardableResult
    static func enable(_ userID: UUID, latch: LatchServices, on database: any Database) async throws -> Bool {
        try await latch.accounts.enable(userID, on: database)
    }
}
