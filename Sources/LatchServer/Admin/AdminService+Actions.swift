import FluentKit
import Foundation
import LatchCore

extension AdminService {
    /// Clears every lock and failure budget of the user's targets (password ladder and budget, codes,
    /// sends, fund password, TOTP), so a locked user can sign in again at once.
    public func unlock(_ id: String) async throws {
        try await onUser(id, action: "unlock") { user in
            let userID = try user.requireID()
            let phone = try await latch.identities.phoneNumbers(of: [userID], on: database)[userID]
            try await clearLocks(Self.lockKeys(of: userID, email: user.email, phone: phone))
            try await record(.accountUnlocked, for: userID)
        }
    }

    /// Disables the account: every grant answers 403 ACCOUNT_DISABLED, and its sessions end at once
    /// (on every instance: the revocation is announced like any other).
    public func disable(_ id: String) async throws {
        try await onUser(id, action: "disable") { user in
            let userID = try user.requireID()
            if try await AccountDisabling.disable(userID, latch: latch, ip: ip, on: database) {
                try await record(.accountDisabled, for: userID)
            }
        }
    }

    /// Enables a disabled account again (its sessions stay ended).
    public func enable(_ id: String) async throws {
        try await onUser(id, action: "enable") { user in
            let userID = try user.requireID()
            if try await AccountDisabling.enable(userID, latch: latch, on: database) {
                try await record(.accountEnabled, for: userID)
            }
        }
    }

    /// Runs the security reset (issue 19 §1): every session ends, on every instance, and with it every
    /// device key, passkey, known device, pending challenge and unredeemed proof.
    public func signOut(_ id: String) async throws {
        try await onUser(id, action: "sign_out") { user in
            let userID = try user.requireID()
            try await latch.securityReset(.everything, user: userID, ip: ip, actor: "operator", on: database)
            try await record(.signedOutEverywhere, for: userID)
        }
    }

    /// Removes TOTP 2FA (secret and recovery codes) and its lock, and mails the user. 404 when the
    /// user has no TOTP.
    public func resetTOTP(_ id: String) async throws {
        try await onUser(id, action: "reset_totp") { user in
            let userID = try user.requireID()
            guard try await latch.totp.isActive(user: userID, on: database) else { throw LatchError.notFound }
            try await latch.totp.disable(user: userID, on: database)
            try await clearLocks([.totp(userID), .totpEnrolment(userID)])
            try await latch.securityChanges.apply(
                SecurityChange(.totpResetByOperator), by: operatorActor(userID), on: database)
        }
    }

    /// Removes the fund password and its lock, and mails the user (who sets a new one after a
    /// recent sign-in). 404 when the user has none.
    public func resetFundPassword(_ id: String) async throws {
        try await onUser(id, action: "reset_fund_password") { user in
            let userID = try user.requireID()
            let fundPasswords = FundPasswordStore()
            guard let fundPassword = try await fundPasswords.find(of: userID, on: database) else {
                throw LatchError.notFound
            }
            try await fundPasswords.remove(fundPassword, on: database)
            try await clearLocks([.fundPassword(userID)])
            try await latch.securityChanges.apply(
                SecurityChange(.fundPasswordResetByOperator), by: operatorActor(userID), on: database)
        }
    }

    /// Deletes the account as `DELETE /v1/me` does (issue 12 §1: data erased, a tombstone kept, every
    /// token dead, Apple revoked when a token is held, the owner mailed). An account already deleted is 404.
    /// The erasure commits with its audit entry; Apple and the last mail come after the commit.
    @discardableResult
    public func deleteUser(_ id: String) async throws -> AppleRevocation {
        let erased = try await onUser(id, action: "delete_user") { user in
            try await deletion.erase(user.requireID(), on: database)
        }
        return await deletion.finish(erased, language: language, on: appDatabase)
    }

    /// The operator as the actor of a security change to `userID`'s account.
    private func operatorActor(_ userID: UUID) -> SecurityChangeActor {
        SecurityChangeActor(user: userID, ip: ip, language: language, actor: "operator")
    }

    private func record(_ kind: SecurityEvent.Kind, for userID: UUID) async throws {
        try await latch.events.record(kind, user: userID, ip: ip, now: latch.clock.epochSeconds, on: database)
    }
}
