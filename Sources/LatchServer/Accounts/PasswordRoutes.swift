import Fluent
import LatchCore
import Vapor

/// Forgotten password (email code, then reset: every session, device key, known device, login
/// challenge and unredeemed verification ends, and the owner is mailed) and password change (knowing
/// the current one: the same ends for the other devices). See `PasswordRecoverySweep`.
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
        let user = try await User.query(on: req.db).filter(\.$email == email.value).first()
        // A code row is written for unknown addresses too (its code is never sent), so the answer and
        // its timing do not tell whether an account exists; a rate-limited resend is silent for the same
        // reason, and the daily cap (429) counts unknown addresses alike.
        let send = try await req.chargeCodeSend(to: "\(EmailCode.Purpose.passwordReset.rawValue):\(email.value)")
        let issued = try await latch.emailCodes.issue(.passwordReset, email: email.value, now: now, on: req.db)
        if case .failure = issued { try await req.refundCodeSend(send) }
        if case .success(let code) = issued {
            // The same work and the same answer either way (issue 10 §3, issue 20 §3): the mail is rendered
            // and handed over in a transaction of its own — committed for an account, rehearsed for an
            // unknown address (with a durable queue the sealed row is written and rolled back), which also
            // answers 503 when the queue is full — and the request recorded (with no user for an unknown
            // address). (Measured with SMTP: scripts/bench/forgot_timing.py --smtp, docs/PERFORMANCE.md.)
            let mail = MailTemplates.passwordResetCode(code.code, language: req.language)
            let (address, sent) = (email.value, code.code)
            if user != nil {
                try await req.db.transaction { try await latch.send(mail, to: address, code: sent, on: $0) }
            } else {
                try await latch.rehearseSend(mail, to: address, code: sent, on: req.db)
            }
            try await latch.events.record(
                .passwordResetRequested, user: user?.id, ip: req.clientIP, now: now, on: req.db)
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
        let now = latch.clock.epochSeconds
        let owner = try await User.query(on: req.db).filter(\.$email == email.value).first()
        // Reset codes have a budget of their own: guesses at sign-in codes or SMS never block this way in.
        _ = try await req.checkEmailCode(
            body.code, purpose: .passwordReset, email: email.value, owner: owner,
            tell: owner?.email.map(CodeLockRecipient.address) ?? .nobody)
        guard let user = owner else { throw LatchError.wrongCode(attemptsRemaining: 0) }
        user.passwordHash = try await latch.passwords.hash(body.newPassword)
        try await user.save(on: req.db)
        let userID = try user.requireID()
        try await latch.revocation.revoke(.all, of: userID, now: now, on: req.db)
        let swept = try await PasswordRecoverySweep.run(.reset, user: userID, now: now, on: req.db)
        // The owner proved the mailbox: the password's lock and daily budget start afresh.
        try await latch.throttle.reset("email:\(email.value)", on: req.db)
        try await latch.budgets.clear("email:\(email.value)", on: req.db)
        try await latch.events.record(.passwordReset, user: user.id, ip: req.clientIP, now: now, on: req.db)
        if swept.deviceKeysRemoved > 0 {
            try await latch.events.record(.deviceKeysRemoved, user: user.id, ip: req.clientIP, now: now, on: req.db)
        }
        try await latch.send(MailTemplates.passwordWasReset(language: req.language), to: email.value)
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
        let key = user.email.map { "email:\($0)" } ?? "user:\(me.userID.uuidString.lowercased())"
        try await req.checkPassword(body.currentPassword, of: user, throttleKey: key, session: me.sessionID)
        user.passwordHash = try await latch.passwords.hash(body.newPassword)
        try await user.save(on: req.db)
        try await latch.revocation.revoke(.allExcept(me.sessionID), of: me.userID, now: now, on: req.db)
        let deviceID = try await Session.find(me.sessionID, on: req.db)?.deviceID
        let knownDeviceID = deviceID.map { KnownDevice.storedID(of: $0, user: me.userID, secrets: latch.secrets) }
        let swept = try await PasswordRecoverySweep.run(
            .change(keeping: me.sessionID, deviceID: deviceID, knownDeviceID: knownDeviceID), user: me.userID,
            now: now, on: req.db)
        try await latch.events.record(
            .passwordChanged, user: me.userID, session: me.sessionID, ip: req.clientIP, now: now, on: req.db)
        if swept.deviceKeysRemoved > 0 {
            try await latch.events.record(
                .deviceKeysRemoved, user: me.userID, session: me.sessionID, ip: req.clientIP, now: now, on: req.db)
        }
        if let email = user.email {
            try await latch.send(MailTemplates.passwordChanged(language: req.language), to: email)
        }
        return .noContent
    }
}
