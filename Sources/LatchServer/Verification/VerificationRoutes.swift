import Fluent
import LatchCore
import SQLKit
import Vapor

/// Step-up verification (A5, A11, D3): offer the methods the user really has, take attempts by any
/// ONE of them (a device-key signature for biometrics, a passkey assertion, a TOTP or recovery code, or the fund
/// password), and answer success with a single-use proof bound to the action and its parameters.
struct VerificationRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let verifications = routes.grouped("v1", "verifications")
        let signedIn = verifications.grouped(RequireSignedIn())
        signedIn.post(use: start)
        signedIn.post(":id", "attempts", use: attempt)
        verifications.post("redeem", use: redeem)
    }

    func start(_ req: Request) async throws -> Response {
        let me = try req.signedIn
        let body = try req.decodeJSON(VerificationRequest.self)
        try Validate.action(body.action)
        try Validate.parameters(body.parameters)
        let latch = req.latch
        let now = latch.clock.epochSeconds
        // A running security hold answers before any method is offered (issue 19 §2).
        try await latch.holds.check(body.action, of: me.userID, now: now, on: req.db)
        let verificationID = UUID()

        var offers: [VerificationMethodOffer] = []
        let credentials = try await latch.deviceCredentials.all(of: me.userID, on: req.db)
        if !credentials.isEmpty {
            let challenge = try await latch.challenges.create(verification: verificationID, now: now, on: req.db)
            offers.append(
                VerificationMethodOffer(
                    type: .biometric, credentialIds: credentials.compactMap { $0.id?.uuidString.lowercased() },
                    challengeId: try challenge.requireID().uuidString.lowercased(), challenge: challenge.challenge))
        }
        let digest = CanonicalParameters.digest(body.parameters)
        if let passkey = try await req.passkeyOffer(
            verification: verificationID, action: body.action, digest: digest, user: me.userID)
        {
            offers.append(passkey)
        }
        if try await latch.totp.isActive(user: me.userID, on: req.db) {
            offers.append(VerificationMethodOffer(type: .totp))
        }
        if try await FundPassword.find(me.userID, on: req.db) != nil {
            offers.append(VerificationMethodOffer(type: .fundPassword))
        }
        guard let preferred = offers.first?.type else {
            throw LatchError(.noVerificationMethod)
        }

        try await latch.verifications.create(
            verificationID, user: me.userID, action: body.action, digest: digest, now: now, on: req.db)
        let started = VerificationStarted(
            verificationId: verificationID.uuidString.lowercased(), methods: offers, preferred: preferred,
            expiresIn: Int(VerificationRecord.lifetime))
        return try await started.encodeResponse(status: .created, for: req)
    }

    func attempt(_ req: Request) async throws -> VerificationPassed {
        let body = try req.decodeJSON(VerificationAttempt.self)
        // An unknown `method` never gets here: decoding it answers 422 `method` `["unknown"]`.
        let method = body.method.rawValue
        let verifications = req.latchMetrics.verifications
        do {
            let passed = try await check(body, req)
            verifications.increment(method, "passed")
            return passed
        } catch {
            verifications.increment(method, LatchMetrics.outcome(of: error))
            throw error
        }
    }

    /// Checks one attempt by one method and answers the proof.
    private func check(_ body: VerificationAttempt, _ req: Request) async throws -> VerificationPassed {
        let me = try req.signedIn
        let answer = try Answer(body)
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw LatchError.notFound }
        let latch = req.latch
        let now = latch.clock.now
        let seconds = now.timeIntervalSince1970

        // One of the 5 attempts is used before anything is checked (atomic, across instances).
        let attempt: VerificationStore.Attempt
        switch try await latch.verifications.useAttempt(id, user: me.userID, now: seconds, on: req.db) {
        case .success(let used): attempt = used
        case .failure(.unknown): throw LatchError.notFound
        case .failure(.completed): throw LatchError(.conflict)
        case .failure(.dead): throw LatchError.wrongCode(attemptsRemaining: 0)
        }
        let (action, digest, remaining) = (attempt.action, attempt.digest, attempt.attemptsRemaining)
        guard let user = try await User.find(me.userID, on: req.db) else { throw LatchError.sessionExpired }

        let result: GuardedCheck
        switch answer {
        case .biometric(let credentialID, let signature):
            result = try await checkSignature(
                signature, by: credentialID, verification: id, action: action, digest: digest, req)
        case .passkey(let credential):
            result = try await req.checkPasskeyAttempt(credential, verification: id, action: action, digest: digest)
        case .totp(let code):
            var used: TOTPService.UsedCode?
            result = try await req.secretGuard.checkTOTP(
                of: me.userID, owner: user, session: me.sessionID, failureEvent: .verificationFailed
            ) {
                used = try await latch.totp.check(code, user: me.userID, now: now, on: req.db)
                return used != nil
            }
            if used == .recoveryCode {
                try await latch.events.record(
                    .recoveryCodeUsed, user: me.userID, session: me.sessionID, ip: req.clientIP, now: seconds,
                    on: req.db)
            }
        case .fundPassword(let candidate):
            guard let fund = try await FundPassword.find(me.userID, on: req.db) else {
                throw LatchError.invalid("method", ["not_set"])
            }
            // The bcrypt place first: a full queue answers 429 without counting a wrong fund password.
            result = try await req.secretGuard.checkFundPassword(
                candidate, against: fund.passwordHash, of: me.userID, owner: user, session: me.sessionID)
        }

        switch result {
        case .matched:
            break
        case .failed(let beforeLock):
            switch answer {
            case .biometric, .passkey:
                // Nothing to guess (no guess budget): the verification's attempts are the limit.
                try await latch.events.record(
                    .verificationFailed, user: me.userID, session: me.sessionID, ip: req.clientIP, now: seconds,
                    on: req.db)
                throw LatchError.wrongCode(attemptsRemaining: remaining)
            case .totp, .fundPassword:
                throw LatchError.wrongCode(attemptsRemaining: min(remaining, beforeLock))
            }
        case .locked(let until):
            throw LatchError.methodLocked(until: until, language: req.language)
        }

        // Completed once: a second success (a race) gets 409 and no second proof.
        guard try await latch.verifications.complete(id, now: seconds, on: req.db) else {
            throw LatchError(.conflict)
        }
        let token = try await latch.verificationTokens.issue(
            user: me.userID, session: me.sessionID, action: action, digest: digest, method: answer.method, now: seconds,
            on: req.db)
        try await latch.events.record(
            .verificationPassed, user: me.userID, session: me.sessionID, ip: req.clientIP, now: seconds, on: req.db)
        return VerificationPassed(verificationToken: token, expiresIn: Int(VerificationToken.lifetime))
    }

    /// A biometric success is a signature by a bound device key over this verification's challenge
    /// and the action's digest; the server never trusts a bare "biometrics passed" (A11).
    private func checkSignature(
        _ signature: String, by credentialID: UUID, verification: UUID, action: String, digest: String,
        _ req: Request
    ) async throws -> GuardedCheck {
        let me = try req.signedIn
        guard let credential = try await req.latch.deviceCredentials.find(credentialID, of: me.userID, on: req.db)
        else {
            throw LatchError.invalid("credential_id", ["unknown"])
        }
        let now = req.latch.clock.epochSeconds
        guard let challenge = try await req.latch.challenges.consume(verification: verification, now: now, on: req.db)
        else {
            return .failed(attemptsBeforeLock: 0) // no live challenge: start a new verification to sign again
        }
        let message = try SignedMessage(
            purpose: .verify(action: action, parametersDigest: digest),
            challengeID: try challenge.requireID().uuidString.lowercased(), challenge: challenge.challenge)
        guard
            DeviceSignature.verify(
                publicKeyX963Base64URL: credential.publicKey, signatureDERBase64URL: signature, message: message)
        else {
            return .failed(attemptsBeforeLock: 0)
        }
        try await req.latch.deviceCredentials.markUsed(credential, now: now, on: req.db)
        return .matched
    }

    /// Redeems with the user's access token, or with a service key (`LATCH_SERVICE_KEYS`) for the
    /// backend that executes the action: then the answer's `user_id` says whose proof it was.
    func redeem(_ req: Request) async throws -> RedeemedVerification {
        let presented = req.headers.bearerToken ?? ""
        let asService = req.latch.config.serviceKeys.contains { SecretBox.constantTimeEquals($0, presented) }
        if !asService { try await req.authenticateSession() }
        let body = try req.decodeJSON(RedeemVerificationRequest.self)
        try Validate.action(body.action)
        try Validate.parameters(body.parameters)
        guard asService else {
            return try await req.redeemVerification(
                body.verificationToken, action: body.action, parameters: body.parameters)
        }
        let now = req.latch.clock.epochSeconds
        let redeemed = try await req.latch.verificationTokens.redeem(
            body.verificationToken, user: nil, action: body.action, digest: CanonicalParameters.digest(body.parameters),
            now: now, holds: req.latch.holds, on: req.db)
        try await req.latch.events.record(
            .verificationRedeemed, user: UUID(uuidString: redeemed.userId), ip: req.clientIP, now: now, on: req.db)
        return redeemed
    }
}
