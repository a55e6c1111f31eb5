import Fluent
import LatchCore
import Vapor

/// TOTP 2FA (D1) and the fund password (D2).
struct SecondFactorRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let v1 = routes.grouped("v1").grouped(RequireSignedIn())
        v1.post("mfa", "totp", use: enrollTOTP)
        v1.post("mfa", "totp", "activate", use: activateTOTP)
        v1.delete("mfa", "totp", use: disableTOTP)
        v1.put("fund-password", use: setFundPassword)
    }

    func enrollTOTP(_ req: Request) async throws -> TOTPEnrollment {
        let me = try req.signedIn
        let latch = req.latch
        // Adding a second factor is itself sensitive: a stolen access token must not add its own.
        let proof =
            req.body.data.map { $0.readableBytes > 0 } == true
            ? try req.decodeJSON(OptionalProof.self).verificationToken : nil
        if try await latch.totp.isActive(user: me.userID, on: req.db) { throw LatchError(.conflict) }
        try await req.requireRecentSignIn(orProof: proof, action: .enableTOTP)
        guard let user = try await User.find(me.userID, on: req.db) else { throw LatchError.sessionExpired }
        let now = latch.clock.epochSeconds
        do {
            let enrollment = try await latch.totp.enroll(
                user: me.userID, session: me.sessionID, account: user.email ?? me.userID.uuidString.lowercased(),
                now: now, on: req.db)
            try await latch.events.record(
                .totpEnrolled, user: me.userID, session: me.sessionID, ip: req.clientIP, now: now, on: req.db)
            return enrollment
        } catch TOTPService.Failure.alreadyActive {
            throw LatchError(.conflict)
        }
    }

    func activateTOTP(_ req: Request) async throws -> TOTPActivated {
        let me = try req.signedIn
        let body = try req.decodeJSON(TOTPActivationRequest.self)
        try Validate.sixDigitCode(body.code)
        let latch = req.latch
        let now = latch.clock.now
        // No live enrolment (none, or older than 10 minutes): nothing to guess, nothing counted.
        guard try await latch.totp.pendingEnrolment(user: me.userID, now: now, on: req.db) != nil else {
            throw LatchError.notFound
        }
        let user = try await User.find(me.userID, on: req.db)
        var codes: [String] = []
        let result: GuardedCheck
        do {
            // Guesses at the pending secret have their own budget: they cannot lock the owner's active factors.
            result = try await req.secretGuard.guardedCheck(
                throttle: nil, budget: .codes, key: .totpEnrolment(me.userID), owner: user,
                session: me.sessionID, failureEvent: .codeFailed,
                notice: .ownerMail(MailTemplates.totpLocked(until:language:))
            ) {
                do {
                    // The activation, its event, the hold and the notice commit together (issue 28 §2):
                    // a notice that cannot be queued leaves 2FA off and the code unused.
                    codes = try await req.db.transaction { database in
                        let codes = try await latch.totp.activate(
                            user: me.userID, code: body.code, now: now, on: database)
                        try await req.securityChanged(.totpAdded, on: database)
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
        case .matched:
            return TOTPActivated(recoveryCodes: codes)
        case .failed(let remaining):
            throw LatchError.wrongCode(attemptsRemaining: remaining)
        case .locked(let until):
            throw LatchError.methodLocked(until: until, language: req.language)
        }
    }

    func disableTOTP(_ req: Request) async throws -> HTTPStatus {
        let me = try req.signedIn
        let body = try req.decodeJSON(VerificationTokenBody.self)
        let latch = req.latch
        guard try await latch.totp.isActive(user: me.userID, on: req.db) else { throw LatchError.notFound }
        // The proof, 2FA off, its event, the hold and the notice commit together (issue 20 §1): a refused
        // notice leaves the proof unspent.
        try await req.db.transaction { database in
            _ = try await req.redeemVerification(
                body.verificationToken, action: "disable_totp", parameters: [:], on: database)
            try await latch.totp.disable(user: me.userID, on: database)
            try await req.securityChanged(.totpRemoved, on: database)
        }
        return .noContent
    }

    func setFundPassword(_ req: Request) async throws -> HTTPStatus {
        let me = try req.signedIn
        let body = try req.decodeJSON(FundPasswordRequest.self)
        let latch = req.latch
        let violations = FundPasswordPolicy.violations(of: body.fundPassword)
        guard violations.isEmpty else { throw LatchError.invalid("fund_password", violations.map(\.rawValue)) }
        guard let user = try await User.find(me.userID, on: req.db) else { throw LatchError.sessionExpired }
        if let loginHash = user.passwordHash, try await latch.passwords.verify(body.fundPassword, against: loginHash) {
            throw LatchError.invalid("fund_password", [FundPasswordPolicy.Violation.sameAsLoginPassword.rawValue])
        }
        let existing = try await FundPassword.find(me.userID, on: req.db)
        if let existing {
            if let current = body.currentFundPassword {
                // Held like every path to the action (issue 28 §2).
                try await latch.holds.check(
                    VerificationAction.changeFundPassword.rawValue, of: me.userID, now: latch.clock.epochSeconds,
                    on: req.db)
                // The bcrypt place first: a full queue answers 429 without counting a wrong fund password.
                let result = try await req.secretGuard.checkFundPassword(
                    current, against: existing.passwordHash, of: me.userID, owner: user, session: me.sessionID)
                switch result {
                case .matched: break
                case .failed(let remaining): throw LatchError.wrongCode(attemptsRemaining: remaining)
                case .locked(let until): throw LatchError.methodLocked(until: until, language: req.language)
                }
            } else {
                guard let proof = body.verificationToken else {
                    throw LatchError(.verificationRequired, field: "current_fund_password")
                }
                _ = try await req.redeemVerification(
                    proof, action: VerificationAction.changeFundPassword.rawValue, parameters: [:])
            }
        } else {
            try await req.requireRecentSignIn(orProof: body.verificationToken, action: .setFundPassword)
        }
        let record = existing ?? FundPassword()
        record.id = me.userID
        record.passwordHash = try await latch.passwords.hash(body.fundPassword)
        record.updatedAt = latch.clock.epochSeconds
        let isChange = existing != nil
        // The fund password, its event, the hold and the notice commit together (issue 20 §1).
        try await req.db.transaction { database in
            do {
                try await record.save(on: database)
            } catch let error as any DatabaseError where error.isConstraintFailure {
                // Two first settings raced and the other one won: this one changed nothing.
                throw LatchError(.conflict, field: "fund_password", reasons: ["set_concurrently"])
            }
            // The first fund password is a factor added (issue 28 §2): mailed and held like a passkey.
            try await req.securityChanged(isChange ? .fundPasswordChanged : .fundPasswordAdded, on: database)
        }
        return .noContent
    }
}

/// A body that may carry a verification token.
private struct OptionalProof: Decodable {
    var verificationToken: String?

    enum CodingKeys: String, CodingKey { case verificationToken = "verification_token" }
}
