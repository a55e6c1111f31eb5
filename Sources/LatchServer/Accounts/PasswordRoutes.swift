import Fluent
import LatchCore
import SQLKit
import Vapor

/// Forgotten password (email code, then reset: the security reset ends every way in — sessions, device
/// keys, passkeys, known devices, pending challenges and codes, unredeemed proofs — and the owner is
/// mailed what was ended) and password change (knowing the current one: the same ends for the other
/// devices). See `SecurityReset`.
///
/// A reset by email code also clears the sign-in lock: the lock protects against guessing, and the
/// owner, who reads the mailbox, must never be locked out for good by someone else's guesses.
struct PasswordRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let password = routes.grouped("v1", "password")
        password.post("forgot", use: forgot)
        password.post("reset", use: reset)
        password.grouped(RequireSignedIn()).post("change", use: change)
    }

    func forgot(_ req: Request) async throws -> HTTPStatus {
        try req.chargeRateLimit(.codeSend)
        let body = try req.decodeJSON(ForgotPasswordRequest.self)
        let email = try Validate.email(body.email)
        let latch = req.latch
        let now = latch.clock.epochSeconds
        // Only the id: decoding a whole account (about 20 columns) was work an unknown address skipped.
        let userID = try await req.db.sql.raw("SELECT id FROM users WHERE email = \(bind: email.value)").first()?
            .decode(column: "id", as: UUID.self)
        // A code row is written for unknown addresses too (its code is never sent), so the answer and
        // its timing do not tell whether an account exists; a rate-limited resend is silent for the same
        // reason, and the daily cap (429) counts unknown addresses alike.
        let send = try await latch.chargeCodeSend(.emailCodeSends(.passwordReset, target: email.value), on: req.db)
        let issued = try await latch.emailCodes.issue(.passwordReset, email: email.value, now: now, on: req.db)
        if case .failure = issued { try await latch.refundCodeSend(send, on: req.db) }
        if case .success(let code) = issued {
            // The same work and the same answer either way (issue 10 §3, issue 20 §3): the mail is rendered
            // and handed over in a committed transaction of its own — queued for an account, written and
            // taken back for an unknown address, in the same statements (issue 28 §2), which also answers
            // 503 when the queue is full — and the request recorded (with no user for an unknown address).
            // (Measured with SMTP: scripts/bench/forgot_timing.py --smtp, docs/PERFORMANCE.md.)
            try await latch.handOverCodeMail(
                MailTemplates.passwordResetCode(code.code, language: req.language), to: email.value, code: code.code,
                forAccount: userID != nil)
            try await latch.events.record(
                .passwordResetRequested, user: userID, ip: req.clientIP, now: now, on: req.db)
        }
        return .accepted
    }

    func reset(_ req: Request) async throws -> HTTPStatus {
        try req.chargeRateLimit(.codeCheck)
        let body = try req.decodeJSON(ResetPasswordRequest.self)
        let latch = req.latch
        let email = try Validate.email(body.email)
        try Validate.sixDigitCode(body.code)
        try Validate.newPassword(body.newPassword, policy: latch.passwordPolicy, field: "new_password")
        if let secondFactor = body.secondFactor, secondFactor.count > 64 {
            throw LatchError.invalid("second_factor", ["too_long"])
        }
        let now = latch.clock.epochSeconds
        let owner = try await User.query(on: req.db).filter(\.$email == email.value).first()
        // Reset codes have a budget of their own: guesses at sign-in codes or SMS never block this way in.
        _ = try await req.checkEmailCode(
            body.code, purpose: .passwordReset, email: email.value, owner: owner,
            tell: owner?.email.map(CodeLockRecipient.address) ?? .nobody)
        guard let user = owner else { throw LatchError.wrongCode(attemptsRemaining: 0) }
        let userID = try user.requireID()
        // A frozen account recovers here (issue 19 §3); with 2FA on, only with its second factor too —
        // unless that TOTP is younger than the planted window: the reset ends it (issue 28 §2), and a
        // thief's own TOTP must not stand between the owner and the account.
        let frozen = user.frozenAt != nil
        let plantedSince = now - max(latch.holds.length, SecurityReset.plantedWindow)
        if frozen, try await latch.totp.isActive(user: userID, on: req.db),
            try await !SecurityReset.hasPlantedTOTP(of: userID, since: plantedSince, on: req.db)
        {
            try await req.checkRecoverySecondFactor(body.secondFactor, of: user)
        }
        let passwordHash = try await latch.passwords.hash(body.newPassword)
        let (ip, language) = (req.clientIP, req.language)
        let actor = SecurityChangeActor(user: userID, ip: ip, language: language)
        // The new password, the reset, the unfreeze, the hold, the events and the notice commit together
        // (issue 20 §1): a notice that cannot be queued leaves the old password and every way in. The
        // sessions ended reach this instance's status cache only after the commit.
        try await latch.revocation.committing(on: req.db) { database in
            try await database.sql.raw(
                "UPDATE users SET password_hash = \(bind: passwordHash) WHERE id = \(bind: userID)"
            ).run()
            let ended = try await latch.securityReset(.everything, user: userID, ip: ip, on: database)
            // What a thief may have planted goes too (issue 28 §2).
            try await SecurityReset.endPlanted(
                of: userID, since: plantedSince, ip: ip, now: now, events: latch.events, on: database)
            // The owner proved the mailbox: the password's lock and daily budget start afresh.
            try await latch.throttle.reset(GuardKey.email(email.value).rawValue, on: database)
            try await latch.budgets.clear(GuardKey.email(email.value).rawValue, on: database)
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
        return .noContent
    }

    func change(_ req: Request) async throws -> HTTPStatus {
        let me = try req.signedIn
        let body = try req.decodeJSON(ChangePasswordRequest.self)
        let latch = req.latch
        try Validate.presentedPassword(body.currentPassword, field: "current_password")
        try Validate.newPassword(body.newPassword, policy: latch.passwordPolicy, field: "new_password")
        guard let user = try await User.find(me.userID, on: req.db) else { throw LatchError.sessionExpired }
        let now = latch.clock.epochSeconds
        // Guessing the current password from a stolen session counts toward the same lock as sign-in.
        let key: GuardKey = user.email.map { .email($0) } ?? .user(me.userID)
        try await req.secretGuard.checkPassword(body.currentPassword, of: user, throttleKey: key, session: me.sessionID)
        let passwordHash = try await latch.passwords.hash(body.newPassword)
        let deviceID = try await Session.find(me.sessionID, on: req.db)?.deviceID
        let knownDeviceID = deviceID.map { KnownDevice.storedID(of: $0, user: me.userID, secrets: latch.secrets) }
        let (ip, actor) = (req.clientIP, try req.changeActor)
        // The new password, the reset of the other devices, the events, the hold and the notice commit
        // together (issue 20 §1).
        try await latch.revocation.committing(on: req.db) { database in
            try await database.sql.raw(
                "UPDATE users SET password_hash = \(bind: passwordHash) WHERE id = \(bind: me.userID)"
            ).run()
            let ended = try await latch.securityReset(
                .otherDevices(keeping: me.sessionID, deviceID: deviceID, knownDeviceID: knownDeviceID), user: me.userID,
                session: me.sessionID, ip: ip, on: database)
            if ended.deviceKeys > 0 {
                try await latch.events.record(
                    .deviceKeysRemoved, user: me.userID, session: me.sessionID, ip: ip, now: now, on: database)
            }
            try await latch.securityChanges.apply(SecurityChange(.passwordChanged), by: actor, on: database)
        }
        return .noContent
    }
}

extension Request {
    /// The second factor a frozen account with 2FA on must add to its password reset (issue 19 §3): its
    /// TOTP code or a recovery code, behind the TOTP method's lock and budget. Missing → 403
    /// VERIFICATION_REQUIRED (`method: "totp"`, `field: "second_factor"`); wrong → AUTH_003.
    fileprivate func checkRecoverySecondFactor(_ secondFactor: String?, of user: User) async throws {
        guard let secondFactor, !secondFactor.isEmpty else {
            throw LatchError(.verificationRequired, field: "second_factor", method: "totp")
        }
        let latch = self.latch
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
