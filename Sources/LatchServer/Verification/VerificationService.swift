import Fluent
import Foundation
import LatchCore

/// Step-up verification (A5, A11, D3) without HTTP (issue 29 §1): offer the methods the caller really
/// has, take attempts by any ONE of them (a device-key signature for biometrics, a passkey assertion, a
/// TOTP or recovery code, or the fund password), and answer success with a single-use proof bound to the
/// action and its parameters. `VerificationRoutes` is its HTTP edge.
struct VerificationService: Sendable {
    let latch: LatchServices
    let metrics: LatchMetrics
    let caller: Caller
    let db: any Database

    /// Starts a verification of `action` with `parameters` (validated by the edge). A running security
    /// hold answers before any method is offered (issue 19 §2); no method at all is NO_VERIFICATION_METHOD.
    func start(action: String, parameters: [String: String]) async throws -> VerificationStarted {
        let now = latch.clock.epochSeconds
        try await latch.holds.check(action, of: caller.user, now: now, on: db)
        let verificationID = UUID()

        var offers: [VerificationMethodOffer] = []
        let credentials = try await latch.deviceCredentials.all(of: caller.user, on: db)
        if !credentials.isEmpty {
            let challenge = try await latch.challenges.create(verification: verificationID, now: now, on: db)
            offers.append(
                VerificationMethodOffer(
                    type: .biometric, credentialIds: credentials.compactMap { $0.id?.uuidString.lowercased() },
                    challengeId: try challenge.requireID().uuidString.lowercased(), challenge: challenge.challenge))
        }
        let digest = CanonicalParameters.digest(parameters)
        if let passkey = try await passkeys.offer(verification: verificationID, action: action, digest: digest) {
            offers.append(passkey)
        }
        if try await latch.totp.isActive(user: caller.user, on: db) {
            offers.append(VerificationMethodOffer(type: .totp))
        }
        if try await FundPassword.find(caller.user, on: db) != nil {
            offers.append(VerificationMethodOffer(type: .fundPassword))
        }
        guard let preferred = offers.first?.type else {
            throw LatchError(.noVerificationMethod)
        }
        try await latch.verifications.create(
            verificationID, user: caller.user, action: action, digest: digest, now: now, on: db)
        return VerificationStarted(
            verificationId: verificationID.uuidString.lowercased(), methods: offers, preferred: preferred,
            expiresIn: Int(VerificationRecord.lifetime))
    }

    /// One attempt at verification `id` by one method, counted in `latch_verifications_total`; success
    /// answers the single-use proof.
    func attempt(_ id: UUID, _ answer: Answer) async throws -> VerificationPassed {
        let method = answer.method.rawValue
        do {
            let passed = try await check(id, answer)
            metrics.verifications.increment(method, "passed")
            return passed
        } catch {
            metrics.verifications.increment(method, LatchMetrics.outcome(of: error))
            throw error
        }
    }

    /// Redeems `token` for a backend holding a service key (`LATCH_SERVICE_KEYS`): any user's proof, for
    /// this `action` and these `parameters`, exactly once; the answer's `user_id` says whose it was.
    static func redeemAsService(
        _ token: String, action: String, parameters: [String: String], ip: String?, latch: LatchServices,
        on db: any Database
    ) async throws -> RedeemedVerification {
        let now = latch.clock.epochSeconds
        let redeemed = try await latch.verificationTokens.redeem(
            token, user: nil, action: action, digest: CanonicalParameters.digest(parameters), now: now,
            holds: latch.holds, on: db)
        try await latch.events.record(
            .verificationRedeemed, user: UUID(uuidString: redeemed.userId), ip: ip, now: now, on: db)
        return redeemed
    }

    private var passkeys: PasskeyVerificationMethod {
        PasskeyVerificationMethod(latch: latch, caller: caller, db: db)
    }

    private var secretGuard: SecretGuard {
        SecretGuard(latch: latch, metrics: metrics, db: db, clientIP: caller.ip, language: caller.language)
    }

    /// Checks one attempt by one method and answers the proof.
    private func check(_ id: UUID, _ answer: Answer) async throws -> VerificationPassed {
        let (latch, caller) = (self.latch, self.caller)
        let now = latch.clock.now
        let seconds = now.timeIntervalSince1970

        // One of the 5 attempts is used before anything is checked (atomic, across instances).
        let attempt: VerificationStore.Attempt
        switch try await latch.verifications.useAttempt(id, user: caller.user, now: seconds, on: db) {
        case .success(let used): attempt = used
        case .failure(.unknown): throw LatchError.notFound
        case .failure(.completed): throw LatchError(.conflict)
        case .failure(.dead): throw LatchError.wrongCode(attemptsRemaining: 0)
        }
        let (action, digest, remaining) = (attempt.action, attempt.digest, attempt.attemptsRemaining)
        guard let user = try await User.find(caller.user, on: db) else { throw LatchError.sessionExpired }

        let result: GuardedCheck
        switch answer {
        case .biometric(let credentialID, let signature):
            result = try await checkSignature(
                signature, by: credentialID, verification: id, action: action, digest: digest)
        case .passkey(let credential):
            result = try await passkeys.check(credential, verification: id, action: action, digest: digest)
        case .totp(let code):
            var used: TOTPService.UsedCode?
            result = try await secretGuard.checkTOTP(
                of: caller.user, owner: user, session: caller.session, failureEvent: .verificationFailed
            ) {
                used = try await latch.totp.check(code, user: caller.user, now: now, on: db)
                return used != nil
            }
            if used == .recoveryCode {
                try await latch.events.record(
                    .recoveryCodeUsed, user: caller.user, session: caller.session, ip: caller.ip, now: seconds, on: db)
            }
        case .fundPassword(let candidate):
            guard let fund = try await FundPassword.find(caller.user, on: db) else {
                throw LatchError.invalid("method", ["not_set"])
            }
            // The bcrypt place first: a full queue answers 429 without counting a wrong fund password.
            result = try await secretGuard.checkFundPassword(
                candidate, against: fund.passwordHash, of: caller.user, owner: user, session: caller.session)
        }

        switch result {
        case .matched:
            break
        case .failed(let beforeLock):
            switch answer {
            case .biometric, .passkey:
                // Nothing to guess (no guess budget): the verification's attempts are the limit.
                try await latch.events.record(
                    .verificationFailed, user: caller.user, session: caller.session, ip: caller.ip, now: seconds,
                    on: db)
                throw LatchError.wrongCode(attemptsRemaining: remaining)
            case .totp, .fundPassword:
                throw LatchError.wrongCode(attemptsRemaining: min(remaining, beforeLock))
            }
        case .locked(let until):
            throw LatchError.methodLocked(until: until, language: caller.language)
        }

        // Completed once: a second success (a race) gets 409 and no second proof.
        guard try await latch.verifications.complete(id, now: seconds, on: db) else {
            throw LatchError(.conflict)
        }
        let token = try await latch.verificationTokens.issue(
            user: caller.user, session: caller.session, action: action, digest: digest, method: answer.method,
            now: seconds, on: db)
        try await latch.events.record(
            .verificationPassed, user: caller.user, session: caller.session, ip: caller.ip, now: seconds, on: db)
        return VerificationPassed(verificationToken: token, expiresIn: Int(VerificationToken.lifetime))
    }

    /// A biometric success is a signature by a bound device key over this verification's challenge
    /// and the action's digest; the server never trusts a bare "biometrics passed" (A11).
    private func checkSignature(
        _ signature: String, by credentialID: UUID, verification: UUID, action: String, digest: String
    ) async throws -> GuardedCheck {
        guard let credential = try await latch.deviceCredentials.find(credentialID, of: caller.user, on: db) else {
            throw LatchError.invalid("credential_id", ["unknown"])
        }
        let now = latch.clock.epochSeconds
        guard let challenge = try await latch.challenges.consume(verification: verification, now: now, on: db) else {
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
        try await latch.deviceCredentials.markUsed(credential, now: now, on: db)
        return .matched
    }
}
