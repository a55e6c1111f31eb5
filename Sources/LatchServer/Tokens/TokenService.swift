import CoreMetrics
import FluentKit
import Foundation
import LatchCore
import Logging

/// `POST /v1/token`'s grants without HTTP (issue 29 §1): the `password`, `refresh_token`,
/// `device_signature`, `login_challenge`, `apple`, `wechat` and `sms_code` grants (C1, C4, C5, C6, C8, B6),
/// and `passkey` (issue 13). `TokenRoutes` is its HTTP edge (the rate limit, the parsing, the metrics).
struct TokenService: Sendable {
    let latch: LatchServices
    let metrics: LatchMetrics
    let identities: IdentityServices
    let db: any Database
    /// The client's address, for the session and the security events.
    let clientIP: String?
    /// The language of the mails a sign-in causes and of its errors.
    let language: LatchLanguage
    let logger: Logger
    /// The DPoP key the request proved (`DPoPGuard.grantKey`): the new session is bound to it, and a bound
    /// session refreshes only with it (issue 31 §1). nil: no proof.
    var dpopKey: String? = nil

    /// Runs `grant` and answers the new tokens.
    func issue(_ grant: Grant) async throws -> TokenResponse {
        switch grant {
        case .password(let email, let password, let device):
            return try await self.password(email: email, password: password, device: device)
        case .refresh(let token):
            return try await refresh(token: token)
        case .deviceSignature(let challengeID, let signature, let assertion, let device):
            return try await deviceSignature(
                challengeID: challengeID, signature: signature, assertion: assertion, device: device)
        case .loginChallenge(let challengeID, let code):
            return try await loginChallenge(challengeID: challengeID, code: code)
        case .apple(let proof, let device):
            return try await identitySignIn.signIn(with: try await prover.proveApple(proof), device: device)
        case .wechat(let code, let device):
            return try await identitySignIn.signIn(with: try await prover.proveWeChat(code: code), device: device)
        case .sms(let phone, let code, let device):
            return try await identitySignIn.signIn(with: try await prover.provePhone(phone, code: code), device: device)
        case .passkey(let challengeID, let credential, let device):
            return try await PasskeySignIn(
                latch: latch, db: db, clientIP: clientIP, language: language, dpopKey: dpopKey
            ).signIn(challengeID: challengeID, credential: credential, device: device)
        case .approval(let approvalID, let pollSecret):
            return try await ApprovalSignIn(
                latch: latch, db: db, clientIP: clientIP, language: language, dpopKey: dpopKey
            ).collect(approvalID: approvalID, pollSecret: pollSecret)
        }
    }

    private var secretGuard: SecretGuard {
        SecretGuard(latch: latch, metrics: metrics, db: db, clientIP: clientIP, language: language)
    }

    private var newDeviceScreening: NewDeviceScreening {
        NewDeviceScreening(latch: latch, db: db, clientIP: clientIP, language: language)
    }

    private var identitySignIn: IdentitySignIn {
        IdentitySignIn(latch: latch, db: db, clientIP: clientIP, language: language, dpopKey: dpopKey)
    }

    private var prover: IdentityProver {
        IdentityProver(
            latch: latch, services: identities, metrics: metrics, db: db, clientIP: clientIP, language: language,
            logger: logger)
    }

    private func password(email: EmailAddress, password: String, device: DeviceInfo?)
        async throws -> TokenResponse
    {
        let now = latch.clock.now

        let account = try await latch.accounts.user(email: email.value, on: db)
        let user = try await secretGuard.checkPassword(password, of: account, throttleKey: .email(email.value))
        try AccountDisabling.refuse(user) // before the new-device check mails a code
        try AccountFreezing.refuse(user)
        try await newDeviceScreening.screen(user, device: device)
        return try await latch.startSession(
            for: user, device: device, ip: clientIP, method: .password, boundTo: dpopKey, now: now, on: db
        ).tokens
    }

    /// B6: a bound device proves possession of its key by signing a fresh login challenge.
    private func deviceSignature(
        challengeID: String, signature: String, assertion: String?, device: DeviceInfo?
    ) async throws -> TokenResponse {
        let now = latch.clock.now
        let seconds = now.timeIntervalSince1970
        guard let id = UUID(uuidString: challengeID),
            let challenge = try await latch.challenges.consume(id, now: seconds, on: db),
            let credentialID = challenge.credentialID,
            let credential = try await latch.deviceCredentials.find(credentialID, on: db),
            let user = try await latch.accounts.user(credential.userID, on: db)
        else { throw LatchError.wrongCredentials() }
        let message = try SignedMessage.login(challengeID: id.uuidString.lowercased(), challenge: challenge.challenge)
        guard
            DeviceSignature.verify(
                publicKeyX963Base64URL: credential.publicKey, signatureDERBase64URL: signature, message: message)
        else {
            try await latch.events.record(.signInFailed, user: user.id, ip: clientIP, now: seconds, on: db)
            throw LatchError.wrongCredentials()
        }
        // Under App Attest, the app's assertion over the same message (issue 31 §2).
        do {
            try await AppAttestService(latch: latch, db: db).checkAssertion(assertion, of: credential, over: message)
        } catch {
            try await latch.events.record(.signInFailed, user: user.id, ip: clientIP, now: seconds, on: db)
            throw error
        }
        try await latch.deviceCredentials.markUsed(credential, now: seconds, on: db)
        // A bound device key is the strongest proof of a known device.
        try await newDeviceScreening.rememberDevice(Validate.deviceName(device?.id), of: credential.userID)
        return try await latch.startSession(
            for: user, device: device, ip: clientIP, method: .deviceKey, boundTo: dpopKey, now: now, on: db
        ).tokens
    }

    /// C8: finishes an unusual sign-in with the mailed code (or a TOTP code), 5 tries, once.
    private func loginChallenge(challengeID: String, code: String) async throws -> TokenResponse {
        let now = latch.clock.now
        let seconds = now.timeIntervalSince1970
        guard let id = UUID(uuidString: challengeID) else { throw LatchError.wrongCode(attemptsRemaining: 0) }
        guard let (challenge, remaining) = try await latch.loginChallenges.useAttempt(id, now: seconds, on: db),
            let user = try await latch.accounts.user(challenge.userID, on: db)
        else { throw LatchError.wrongCode(attemptsRemaining: 0) }
        // Every guess counts toward the account's budget, however many challenges a known password opens.
        let result: GuardedCheck
        switch challenge.kind {
        case .totp:
            result = try await secretGuard.checkTOTP(of: challenge.userID, owner: user, failureEvent: .signInFailed) {
                try await latch.totp.check(code, user: challenge.userID, now: now, on: db) != nil
            }
        case .email:
            let expected = latch.secrets.keyedHash(code, context: "login-challenge:\(id.uuidString.lowercased())")
            result = try await secretGuard.guardedCheck(
                throttle: nil, budget: .codes, key: .signInCode(challenge.userID), owner: user,
                failureEvent: .signInFailed, notice: .ownerMail(MailTemplates.codesLocked(until:language:))
            ) { challenge.codeHash.map { SecretBox.constantTimeEquals($0, expected) } ?? false }
        }
        switch result {
        case .matched: break
        case .failed(let beforeLock): throw LatchError.wrongCode(attemptsRemaining: min(remaining, beforeLock))
        case .locked(let until):
            switch challenge.kind {
            case .totp: throw LatchError.methodLocked(until: until, language: language)
            case .email: throw LatchError.locked(until: until)
            }
        }
        guard try await latch.loginChallenges.useOnce(id, now: seconds, on: db) else {
            throw LatchError.wrongCode(attemptsRemaining: 0)
        }
        let device = DeviceInfo(
            id: challenge.deviceID, name: challenge.deviceName, model: challenge.deviceModel,
            platform: challenge.platform)
        // The device, the session and the new-device notice commit together (issue 20 §1).
        return try await db.tracedTransaction { database in
            let screening = NewDeviceScreening(
                latch: latch, db: database, clientIP: clientIP, language: language)
            try await screening.rememberDevice(challenge.deviceID, of: challenge.userID)
            let (session, tokens) = try await latch.startSession(
                for: user, device: device, ip: clientIP, method: .newDeviceCode, boundTo: dpopKey, now: now,
                on: database)
            try await screening.notice(user, device: device, session: session.id)
            return tokens
        }
    }

    private func refresh(token: String) async throws -> TokenResponse {
        guard !token.isEmpty, token.utf8.count <= 256 else { throw LatchError.sessionExpired }
        let now = latch.clock.now
        switch try await latch.rotation.refresh(
            token, key: dpopKey, requireBinding: latch.config.dpop == .required, now: now, on: db)
        {
        case .rotated(let tokens):
            return tokens
        case .wrongKey(let presented, let userID, let sessionID):
            let reason = presented == nil ? "missing" : DPoPProofFailure.wrongKey.rawValue
            // A copy of a bound refresh token is in someone's hands: the owner sees it (nothing moved).
            try await latch.events.record(
                .dpopRefused, user: userID, session: sessionID, ip: clientIP, now: now.timeIntervalSince1970,
                detail: reason, on: db)
            throw LatchError.dpopInvalid(reason, atTokenEndpoint: true)
        case .notBound:
            throw LatchError.dpopInvalid("session_not_bound", atTokenEndpoint: true)
        case .invalid:
            // A frozen account's sessions all ended: say so, so the app can tell the owner how to recover.
            if try await latch.accounts.isFrozen(owningRefreshTokenHash: SecretBox.hash(token), on: db) {
                throw LatchError.accountFrozen
            }
            throw LatchError.sessionExpired
        case .replayed(let userID, let sessionID):
            latch.sessionStatus.markRevoked([sessionID])
            metrics.refreshTokenReuse.increment()
            try await latch.events.record(
                .refreshTokenReused, user: userID, session: sessionID, ip: clientIP, now: now.timeIntervalSince1970,
                on: db)
            throw LatchError.sessionExpired
        }
    }
}
