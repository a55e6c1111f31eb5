import CoreMetrics
import Fluent
import LatchCore
import Vapor

/// `POST /v1/token`: the `password`, `refresh_token`, `device_signature`, `login_challenge`, `apple`, `wechat` and
/// `sms_code` grants (C1, C4, C5, C6, C8, B6), and `passkey` (issue 13).
struct TokenRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post("v1", "token") { req in Response.json(try await token(req).jsonBody()) }
    }

    func token(_ req: Request) async throws -> TokenResponse {
        let body = try req.decodeJSON(TokenRequest.self)
        try body.credential?.checkEncoding()
        let signIns = req.latchMetrics.signIns
        do {
            let tokens = try await grant(body, req)
            signIns.increment(body.grantType.rawValue, "succeeded")
            return tokens
        } catch {
            signIns.increment(body.grantType.rawValue, LatchMetrics.outcome(of: error))
            throw error
        }
    }

    /// Charges the grant's rate limit, parses the body into its `Grant` and runs it.
    private func grant(_ body: TokenRequest, _ req: Request) async throws -> TokenResponse {
        try req.chargeRateLimit(Self.rateLimitedAction(of: body.grantType))
        switch try Grant(body) {
        case .password(let email, let password, let device):
            return try await passwordGrant(email: email, password: password, device: device, req)
        case .refresh(let token):
            return try await refreshGrant(token: token, req)
        case .deviceSignature(let challengeID, let signature, let device):
            return try await deviceSignatureGrant(challengeID: challengeID, signature: signature, device: device, req)
        case .loginChallenge(let challengeID, let code):
            return try await loginChallengeGrant(challengeID: challengeID, code: code, req)
        case .apple(let proof, let device):
            return try await req.identitySignIn.signIn(with: try await req.proveApple(proof), device: device)
        case .wechat(let code, let device):
            return try await req.identitySignIn.signIn(with: try await req.proveWeChat(code: code), device: device)
        case .sms(let phone, let code, let device):
            return try await req.identitySignIn.signIn(
                with: try await req.provePhone(phone, code: code), device: device)
        case .passkey(let challengeID, let credential, let device):
            return try await req.passkeySignIn.signIn(challengeID: challengeID, credential: credential, device: device)
        }
    }

    /// The rate limit a grant is charged to: refreshing is cheap and frequent, every other grant
    /// proves a secret (and the password grant runs bcrypt), so they share the tight sign-in limit.
    static func rateLimitedAction(of grant: TokenRequest.GrantType) -> RateLimitedAction {
        switch grant {
        case .refreshToken: .refresh
        case .password, .deviceSignature, .apple, .wechat, .smsCode, .loginChallenge, .passkey: .signIn
        }
    }

    private func passwordGrant(email: EmailAddress, password: String, device: DeviceInfo?, _ req: Request)
        async throws -> TokenResponse
    {
        let latch = req.latch
        let now = latch.clock.now

        let account = try await User.query(on: req.db).filter(\.$email == email.value).first()
        let user = try await req.secretGuard.checkPassword(password, of: account, throttleKey: .email(email.value))
        try AccountDisabling.refuse(user) // before the new-device check mails a code
        try AccountFreezing.refuse(user)
        try await req.newDeviceScreening.screen(user, device: device)
        return try await latch.startSession(for: user, device: device, ip: req.clientIP, now: now, on: req.db)
            .tokens
    }

    /// B6: a bound device proves possession of its key by signing a fresh login challenge.
    private func deviceSignatureGrant(
        challengeID: String, signature: String, device: DeviceInfo?, _ req: Request
    ) async throws -> TokenResponse {
        let latch = req.latch
        let now = latch.clock.now
        let seconds = now.timeIntervalSince1970
        guard let id = UUID(uuidString: challengeID),
            let challenge = try await latch.challenges.consume(id, now: seconds, on: req.db),
            let credentialID = challenge.credentialID,
            let credential = try await latch.deviceCredentials.find(credentialID, on: req.db),
            let user = try await User.find(credential.userID, on: req.db)
        else { throw LatchError.wrongCredentials() }
        let message = try SignedMessage.login(challengeID: id.uuidString.lowercased(), challenge: challenge.challenge)
        guard
            DeviceSignature.verify(
                publicKeyX963Base64URL: credential.publicKey, signatureDERBase64URL: signature, message: message)
        else {
            try await latch.events.record(.signInFailed, user: user.id, ip: req.clientIP, now: seconds, on: req.db)
            throw LatchError.wrongCredentials()
        }
        try await latch.deviceCredentials.markUsed(credential, now: seconds, on: req.db)
        // A bound device key is the strongest proof of a known device.
        try await req.newDeviceScreening.rememberDevice(Validate.deviceName(device?.id), of: credential.userID)
        return try await latch.startSession(for: user, device: device, ip: req.clientIP, now: now, on: req.db)
            .tokens
    }

    /// C8: finishes an unusual sign-in with the mailed code (or a TOTP code), 5 tries, once.
    private func loginChallengeGrant(challengeID: String, code: String, _ req: Request) async throws -> TokenResponse {
        let latch = req.latch
        let now = latch.clock.now
        let seconds = now.timeIntervalSince1970
        guard let id = UUID(uuidString: challengeID) else { throw LatchError.wrongCode(attemptsRemaining: 0) }
        guard let (challenge, remaining) = try await latch.loginChallenges.useAttempt(id, now: seconds, on: req.db),
            let user = try await User.find(challenge.userID, on: req.db)
        else { throw LatchError.wrongCode(attemptsRemaining: 0) }
        // Every guess counts toward the account's budget, however many challenges a known password opens.
        let result: GuardedCheck
        switch challenge.kind {
        case .totp:
            result = try await req.secretGuard.checkTOTP(of: challenge.userID, owner: user, failureEvent: .signInFailed)
            {
                try await latch.totp.check(code, user: challenge.userID, now: now, on: req.db) != nil
            }
        case .email:
            let expected = latch.secrets.keyedHash(code, context: "login-challenge:\(id.uuidString.lowercased())")
            result = try await req.secretGuard.guardedCheck(
                throttle: nil, budget: .codes, key: .signInCode(challenge.userID), owner: user,
                failureEvent: .signInFailed, notice: .ownerMail(MailTemplates.codesLocked(until:language:))
            ) { challenge.codeHash.map { SecretBox.constantTimeEquals($0, expected) } ?? false }
        }
        switch result {
        case .matched: break
        case .failed(let beforeLock): throw LatchError.wrongCode(attemptsRemaining: min(remaining, beforeLock))
        case .locked(let until):
            switch challenge.kind {
            case .totp: throw LatchError.methodLocked(until: until, language: req.language)
            case .email: throw LatchError.locked(until: until)
            }
        }
        guard try await latch.loginChallenges.useOnce(id, now: seconds, on: req.db) else {
            throw LatchError.wrongCode(attemptsRemaining: 0)
        }
        let device = DeviceInfo(
            id: challenge.deviceID, name: challenge.deviceName, model: challenge.deviceModel,
            platform: challenge.platform)
        // The device, the session and the new-device notice commit together (issue 20 §1).
        return try await req.db.transaction { database in
            let screening = NewDeviceScreening(
                latch: latch, db: database, clientIP: req.clientIP, language: req.language)
            try await screening.rememberDevice(challenge.deviceID, of: challenge.userID)
            let (session, tokens) = try await latch.startSession(
                for: user, device: device, ip: req.clientIP, now: now, on: database)
            try await screening.notice(user, device: device, session: session.id)
            return tokens
        }
    }

    private func refreshGrant(token: String, _ req: Request) async throws -> TokenResponse {
        guard !token.isEmpty, token.utf8.count <= 256 else { throw LatchError.sessionExpired }
        let latch = req.latch
        let now = latch.clock.now
        switch try await latch.rotation.refresh(token, now: now, on: req.db) {
        case .rotated(let tokens):
            return tokens
        case .invalid:
            // A frozen account's sessions all ended: say so, so the app can tell the owner how to recover.
            if try await AccountFreezing.ownsFrozenAccount(refreshTokenHash: SecretBox.hash(token), on: req.db) {
                throw LatchError.accountFrozen
            }
            throw LatchError.sessionExpired
        case .replayed(let userID, let sessionID):
            latch.sessionStatus.markRevoked([sessionID])
            req.latchMetrics.refreshTokenReuse.increment()
            try await latch.events.record(
                .refreshTokenReused, user: userID, session: sessionID, ip: req.clientIP, now: now.timeIntervalSince1970,
                on: req.db)
            throw LatchError.sessionExpired
        }
    }
}
