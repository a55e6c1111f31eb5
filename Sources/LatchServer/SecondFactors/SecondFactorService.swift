import FluentKit
import Foundation
import LatchCore

/// TOTP 2FA (D1) and the fund password (D2) for the signed-in caller, without HTTP (issue 29 §1): plain
/// values in, typed results or `LatchError` out. `SecondFactorRoutes` is its HTTP edge.
struct SecondFactorService: Sendable {
    let latch: LatchServices
    let caller: Caller
    let db: any Database
    /// Guesses at the pending TOTP, the current fund password (the edge builds it with its metrics).
    let secretGuard: SecretGuard

    private var stepUp: StepUp { StepUp(latch: latch, caller: caller, db: db) }

    /// A new pending TOTP secret. Adding a second factor is itself sensitive: a stolen access token must
    /// not add its own, so it needs a recent sign-in or a proof for `enable_totp`; 409 when 2FA is on.
    func enrollTOTP(proof: String?) async throws -> TOTPEnrollment {
        if try await latch.totp.isActive(user: caller.user, on: db) { throw LatchError(.conflict) }
        try await stepUp.requireRecentSignIn(orProof: proof, action: .enableTOTP)
        guard let user = try await latch.accounts.user(caller.user, on: db) else { throw LatchError.sessionExpired }
        let now = latch.clock.epochSeconds
        do {
            let enrollment = try await latch.totp.enroll(
                user: caller.user, session: caller.session,
                account: user.email ?? caller.user.uuidString.lowercased(), now: now, on: db)
            try await latch.events.record(
                .totpEnrolled, user: caller.user, session: caller.session, ip: caller.ip, now: now, on: db)
            return enrollment
        } catch TOTPService.Failure.alreadyActive {
            throw LatchError(.conflict)
        }
    }

    /// Turns the pending TOTP on with its first `code` (a security change, issue 28 §2); the ten
    /// recovery codes, shown once.
    func activateTOTP(code: String) async throws -> TOTPActivated {
        try Validate.sixDigitCode(code)
        let (latch, caller, db) = (self.latch, self.caller, self.db)
        let now = latch.clock.now
        // No live enrolment (none, or older than 10 minutes): nothing to guess, nothing counted.
        guard try await latch.totp.pendingEnrolment(user: caller.user, now: now, on: db) != nil else {
            throw LatchError.notFound
        }
        let user = try await latch.accounts.user(caller.user, on: db)
        var codes: [String] = []
        let result: GuardedCheck
        do {
            // Guesses at the pending secret have their own budget: they cannot lock the owner's active factors.
            result = try await secretGuard.guardedCheck(
                throttle: nil, budget: .codes, key: .totpEnrolment(caller.user), owner: user, session: caller.session,
                failureEvent: .codeFailed, notice: .ownerMail(MailTemplates.totpLocked(until:language:))
            ) {
                do {
                    // The activation, its event, the hold and the notice commit together (issue 28 §2):
                    // a notice that cannot be queued leaves TOTP off and the code unused.
                    codes = try await db.tracedTransaction { database in
                        let codes = try await latch.totp.activate(user: caller.user, code: code, now: now, on: database)
                        try await latch.securityChanges.apply(
                            SecurityChange(.totpAdded), by: caller.changeActor, on: database)
                        return codes
                    }
                    return true
                } catch TOTPService.Failure.wrongCode {
                    return false
                }
            }
        } catch TOTPService.Failure.notEnrolled {
            throw LatchError.notFound
        }
        switch result {
        case .matched: return TOTPActivated(recoveryCodes: codes)
        case .failed(let remaining): throw LatchError.wrongCode(attemptsRemaining: remaining)
        case .locked(let until): throw LatchError.methodLocked(until: until, language: caller.language)
        }
    }

    /// Turns 2FA off with a proof for `disable_totp` (a security change); 404 when it is off.
    func disableTOTP(proof: String) async throws {
        let (latch, caller) = (self.latch, self.caller)
        guard try await latch.totp.isActive(user: caller.user, on: db) else { throw LatchError.notFound }
        // The proof, 2FA off, its event, the hold and the notice commit together (issue 20 §1): a refused
        // notice leaves the proof unspent.
        try await db.tracedTransaction { database in
            _ = try await Redemption(latch: latch).redeem(
                proof, action: .disableTOTP, parameters: [:], by: caller, on: database)
            try await latch.totp.disable(user: caller.user, on: database)
            try await latch.securityChanges.apply(SecurityChange(.totpRemoved), by: caller.changeActor, on: database)
        }
    }

    /// Sets the first fund password (a recent sign-in or a proof for `set_fund_password`) or changes it
    /// (the current one, or a proof for `change_fund_password`); either is a security change.
    func setFundPassword(_ request: FundPasswordRequest) async throws {
        let (latch, caller) = (self.latch, self.caller)
        let violations = FundPasswordPolicy.violations(of: request.fundPassword)
        guard violations.isEmpty else { throw LatchError.invalid("fund_password", violations.map(\.rawValue)) }
        guard let user = try await latch.accounts.user(caller.user, on: db) else { throw LatchError.sessionExpired }
        if let loginHash = user.passwordHash, try await latch.passwords.verify(request.fundPassword, against: loginHash)
        {
            throw LatchError.invalid("fund_password", [FundPasswordPolicy.Violation.sameAsLoginPassword.rawValue])
        }
        let existing = try await FundPasswordStore().find(of: caller.user, on: db)
        if let existing {
            if let current = request.currentFundPassword {
                // Held like every path to the action (issue 28 §2).
                try await latch.holds.check(
                    VerificationAction.changeFundPassword.rawValue, of: caller.user, now: latch.clock.epochSeconds,
                    on: db)
                // The bcrypt place first: a full queue answers 429 without counting a wrong fund password.
                let result = try await secretGuard.checkFundPassword(
                    current, against: existing.passwordHash, of: caller.user, owner: user, session: caller.session)
                switch result {
                case .matched: break
                case .failed(let remaining): throw LatchError.wrongCode(attemptsRemaining: remaining)
                case .locked(let until): throw LatchError.methodLocked(until: until, language: caller.language)
                }
            } else {
                guard let proof = request.verificationToken else {
                    throw LatchError(.verificationRequired, field: "current_fund_password")
                }
                _ = try await Redemption(latch: latch).redeem(
                    proof, action: .changeFundPassword, parameters: [:], by: caller, on: db)
            }
        } else {
            try await stepUp.requireRecentSignIn(orProof: request.verificationToken, action: .setFundPassword)
        }
        let record = existing ?? FundPassword()
        record.id = caller.user
        record.passwordHash = try await latch.passwords.hash(request.fundPassword)
        record.updatedAt = latch.clock.epochSeconds
        record.sessionID = caller.session
        let isChange = existing != nil
        // The fund password, its event, the hold and the notice commit together (issue 20 §1).
        try await db.tracedTransaction { database in
            do {
                try await FundPasswordStore().save(record, on: database)
            } catch let error as any DatabaseError where error.isConstraintFailure {
                // Two first settings raced and the other one won: this one changed nothing.
                throw LatchError(.conflict, field: "fund_password", reasons: ["set_concurrently"])
            }
            // The first fund password is a factor added (issue 28 §2): mailed and held like a passkey.
            try await latch.securityChanges.apply(
                SecurityChange(isChange ? .fundPasswordChanged : .fundPasswordAdded), by: caller.changeActor,
                on: database)
        }
    }
}
