import FluentKit
import Foundation
import LatchCore

/// Forgotten password (email code, then reset: the security reset ends every way in — sessions, device
/// keys, passkeys, known devices, pending challenges and codes, unredeemed proofs — and the owner is
/// mailed what was ended) and password change (knowing the current one: the same ends for the other
/// devices), without HTTP (issue 29 §1). See `SecurityReset`; `PasswordRoutes` is its HTTP edge.
///
/// A reset by email code also clears the sign-in lock: the lock protects against guessing, and the
/// owner, who reads the mailbox, must never be locked out for good by someone else's guesses.
struct PasswordService: Sendable {
    let latch: LatchServices
    let metrics: LatchMetrics
    let db: any Database
    /// The client's address, for the security events.
    let clientIP: String?
    /// The language of the mails and of the errors.
    let language: LatchLanguage

    private var secretGuard: SecretGuard {
        SecretGuard(latch: latch, metrics: metrics, db: db, clientIP: clientIP, language: language)
    }

    /// Mails a reset code to `email` when it has an account; the same work, answer and timing when not.
    func forgot(_ email: EmailAddress) async throws {
        let latch = self.latch
        let now = latch.clock.epochSeconds
        let userID = try await latch.accounts.id(ofEmail: email.value, on: db)
        // A code row is written for unknown addresses too (its code is never sent), so the answer and
        // its timing do not tell whether an account exists; a rate-limited resend is silent for the same
        // reason, and the daily cap (429) counts unknown addresses alike.
        let send = try await latch.chargeCodeSend(.emailCodeSends(.passwordReset, target: email.value), on: db)
        let issued = try await latch.emailCodes.issue(.passwordReset, email: email.value, now: now, on: db)
        if case .failure = issued { try await latch.refundCodeSend(send, on: db) }
        if case .success(let code) = issued {
            // The same work and the same answer either way (issue 10 §3, issue 20 §3): the mail is rendered
            // and handed over in a committed transaction of its own — queued for an account, written and
            // taken back for an unknown address, in the same statements (issue 28 §2), which also answers
            // 503 when the queue is full — and the request recorded (with no user for an unknown address).
            // (Measured with SMTP: scripts/bench/forgot_timing.py --smtp, docs/PERFORMANCE.md.)
            try await latch.handOverCodeMail(
                MailTemplates.passwordResetCode(code.code, language: language), to: email.value, code: code.code,
                forAccount: userID != nil)
            try await latch.events.record(.passwordResetRequested, user: userID, ip: clientIP, now: now, on: db)
        }
    }

    /// Sets `newPassword` (validated by the edge) for `email`'s account with its mailed `code`, and resets
    /// every way in. A frozen account with 2FA on also needs its `secondFactor`.
    func reset(email: EmailAddress, code: String, newPassword: String, secondFactor: String?) async throws {
        let latch = self.latch
        let now = latch.clock.epochSeconds
        let owner = try await latch.accounts.user(email: email.value, on: db)
        // Reset codes have a budget of their own: guesses at sign-in codes or SMS never block this way in.
        _ = try await secretGuard.checkEmailCode(
            code, purpose: .passwordReset, email: email.value, owner: owner,
            tell: owner?.email.map(CodeLockRecipient.address) ?? .nobody)
        guard let user = owner else { throw LatchError.wrongCode(attemptsRemaining: 0) }
        let userID = try user.requireID()
        // A frozen account recovers here (issue 19 §3); with 2FA on, only with its second factor too —
        // unless that TOTP is younger than the planted window: the reset ends it (issue 28 §2), and a
        // thief's own TOTP must not stand between the owner and the account.
        let frozen = user.frozenAt != nil
        let plantedSince = now - max(latch.holds.length, SecurityReset.plantedWindow)
        if frozen, try await latch.totp.isActive(user: userID, on: db),
            try await !SecurityReset.hasPlantedTOTP(
                of: userID, since: plantedSince, accounts: latch.accounts, on: db)
        {
            try await checkRecoverySecondFactor(secondFactor, of: user)
        }
        let passwordHash = try await latch.passwords.hash(newPassword)
        let ip = clientIP
        let actor = SecurityChangeActor(user: userID, ip: ip, language: language)
        // The new password, the reset, the unfreeze, the hold, the events and the notice commit together
        // (issue 20 §1): a notice that cannot be queued leaves the old password and every way in. The
        // sessions ended reach this instance's status cache only after the commit.
        try await latch.revocation.committing(on: db) { database in
            try await latch.accounts.setPasswordHash(passwordHash, of: userID, on: database)
            let ended = try await latch.securityReset(.everything, user: userID, ip: ip, on: database)
            // What a thief may have planted goes too (issue 28 §2).
            try await SecurityReset.endPlanted(
                of: userID, since: plantedSince, ip: ip, now: now, events: latch.events, accounts: latch.accounts,
                on: database)
            // The owner proved the mailbox: the password's lock and daily budget start afresh.
            try await latch.throttle.reset(.email(email.value), on: database)
            try await latch.budgets.clear(.email(email.value), on: database)
            if ended.deviceKeys > 0 {
                try await latch.events.record(.deviceKeysRemoved, user: userID, ip: ip, now: now, on: database)
            }
            let kept = try await SecurityReset.kept(of: userID, on: database)
            try await latch.securityChanges.apply(
                SecurityChange(.passwordReset, reset: SecurityChange.ResetOutcome(ended: ended, kept: kept)), by: actor,
                on: database)
            // After the reset's own notice: unfreezing expires the freeze links minted before the freeze,
            // and its hold (reason `unfrozen`) is the one the owner sees.
            if frozen {
                try await AccountFreezing.unfreeze(userID, by: .owner, ip: ip, latch: latch, on: database)
            }
        }
    }

    /// Changes the caller's password, knowing the current one: the other devices are reset.
    func change(current: String, new newPassword: String, by caller: Caller) async throws {
        let latch = self.latch
        guard let user = try await latch.accounts.user(caller.user, on: db) else { throw LatchError.sessionExpired }
        let now = latch.clock.epochSeconds
        // Guessing the current password from a stolen session counts toward the same lock as sign-in.
        let key: GuardKey = user.email.map { .email($0) } ?? .user(caller.user)
        try await secretGuard.checkPassword(current, of: user, throttleKey: key, session: caller.session)
        let passwordHash = try await latch.passwords.hash(newPassword)
        let deviceID = try await SessionStore().find(caller.session, on: db)?.deviceID
        let knownDeviceID = deviceID.map { KnownDevice.storedID(of: $0, user: caller.user, secrets: latch.secrets) }
        let (ip, actor) = (caller.ip, caller.changeActor)
        // The new password, the reset of the other devices, the events, the hold and the notice commit
        // together (issue 20 §1).
        try await latch.revocation.committing(on: db) { database in
            try await latch.accounts.setPasswordHash(passwordHash, of: caller.user, on: database)
            let ended = try await latch.securityReset(
                .otherDevices(keeping: caller.session, deviceID: deviceID, knownDeviceID: knownDeviceID),
                user: caller.user,
                session: caller.session, ip: ip, on: database)
            if ended.deviceKeys > 0 {
                try await latch.events.record(
                    .deviceKeysRemoved, user: caller.user, session: caller.session, ip: ip, now: now, on: database)
            }
            try await latch.securityChanges.apply(SecurityChange(.passwordChanged), by: actor, on: database)
        }
    }

    /// The second factor a frozen account with 2FA on must add to its password reset (issue 19 §3): its
    /// TOTP code or a recovery code, behind the TOTP method's lock and budget. Missing → 403
    /// VERIFICATION_REQUIRED (`method: "totp"`, `field: "second_factor"`); wrong → AUTH_003.
    private func checkRecoverySecondFactor(_ secondFactor: String?, of user: User) async throws {
        guard let secondFactor, !secondFactor.isEmpty else {
            throw LatchError(.verificationRequired, field: "second_factor", method: "totp")
        }
        let (latch, db) = (self.latch, self.db)
        let userID = try user.requireID()
        var used: TOTPService.UsedCode?
        let result = try await secretGuard.checkTOTP(of: userID, owner: user, failureEvent: .codeFailed) {
            used = try await latch.totp.check(secondFactor, user: userID, now: latch.clock.now, on: db)
            return used != nil
        }
        switch result {
        case .matched: break
        case .failed(let remaining): throw LatchError.wrongCode(attemptsRemaining: remaining)
        case .locked(let until): throw LatchError.methodLocked(until: until, language: language)
        }
        if used == .recoveryCode {
            try await latch.events.record(
                .recoveryCodeUsed, user: userID, ip: clientIP, now: latch.clock.epochSeconds, on: db)
        }
    }
}
