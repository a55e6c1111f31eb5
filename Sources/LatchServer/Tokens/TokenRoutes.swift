import CoreMetrics
import Fluent
import LatchCore
import Vapor

/// `POST /v1/token`: the `password`, `refresh_token`, `device_signature`, `login_challenge`, `apple`, `wechat` and
/// `sms_code` grants (C1, C4, C5, C6, C8, B6), and `passkey` (issue 13).
struct TokenRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post("v1", "token", use: token)
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

    /// Charges the grant's rate limit and runs it.
    private func grant(_ body: TokenRequest, _ req: Request) async throws -> TokenResponse {
        try req.chargeRateLimit(Self.rateLimitedAction(of: body.grantType))
        switch body.grantType {
        case .password:
            return try await passwordGrant(body, req)
        case .refreshToken:
            return try await refreshGrant(body, req)
        case .deviceSignature:
            return try await deviceSignatureGrant(body, req)
        case .loginChallenge:
            return try await loginChallengeGrant(body, req)
        case .apple:
            let proven = try await req.proveApple(
                identityToken: body.identityToken, nonce: body.nonce, fullName: body.fullName,
                authorizationCode: body.authorizationCode)
            return try await req.signIn(with: proven, device: body.device)
        case .wechat:
            return try await req.signIn(with: try await req.proveWeChat(code: body.code), device: body.device)
        case .smsCode:
            return try await req.signIn(
                with: try await req.provePhone(phone: body.phone, code: body.code), device: body.device)
        case .passkey:
            return try await req.passkeyGrant(body)
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

    private func passwordGrant(_ body: TokenRequest, _ req: Request) async throws -> TokenResponse {
        guard let rawEmail = body.email else {
            throw LatchError(.validationFailed, status: .badRequest, field: "email", reasons: ["missing"])
        }
        guard let password = body.password else {
            throw LatchError(.validationFailed, status: .badRequest, field: "password", reasons: ["missing"])
        }
        let email = try Validate.email(rawEmail)
        try Validate.presentedPassword(password)
        let latch = req.latch
        let now = latch.clock.now

        let account = try await User.query(on: req.db).filter(\.$email == email.value).first()
        let user = try await req.checkPassword(password, of: account, throttleKey: "email:\(email.value)")
        try AccountDisabling.refuse(user) // before the new-device check mails a code
        try AccountFreezing.refuse(user)
        try await req.screenNewDevice(user, device: body.device)
        return try await latch.startSession(for: user, device: body.device, ip: req.clientIP, now: now, on: req.db)
            .tokens
    }

    /// B6: a bound device proves possession of its key by signing a fresh login challenge.
    private func deviceSignatureGrant(_ body: TokenRequest, _ req: Request) async throws -> TokenResponse {
        guard let challengeID = body.challengeId else {
            throw LatchError(.validationFailed, status: .badRequest, field: "challenge_id", reasons: ["missing"])
        }
        guard let signature = body.signature else {
            throw LatchError(.validationFailed, status: .badRequest, field: "signature", reasons: ["missing"])
        }
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
        try await req.rememberDevice(Validate.deviceName(body.device?.id), of: credential.userID)
        return try await latch.startSession(for: user, device: body.device, ip: req.clientIP, now: now, on: req.db)
            .tokens
    }

    /// C8: finishes an unusual sign-in with the mailed code (or a TOTP code), 5 tries, once.
    private func loginChallengeGrant(_ body: TokenRequest, _ req: Request) async throws -> TokenResponse {
        guard let challengeID = body.challengeId else {
            throw LatchError(.validationFailed, status: .badRequest, field: "challenge_id", reasons: ["missing"])
        }
        guard let code = body.code, !code.isEmpty else { throw LatchError.missing("code") }
        guard code.count <= 64 else { throw LatchError.invalid("code", ["too_long"]) }
        let latch = req.latch
        let now = latch.clock.now
        let seconds = now.timeIntervalSince1970
        guard let id = UUID(uuidString: challengeID) else { throw LatchError.wrongCode(attemptsRemaining: 0) }
        guard let (challenge, remaining) = try await latch.loginChallenges.useAttempt(id, now: seconds, on: req.db),
            let user = try await User.find(challenge.userID, on: req.db)
        else { throw LatchError.wrongCode(attemptsRemaining: 0) }
        let userKey = challenge.userID.uuidString.lowercased()
        // Every guess counts toward the account's budget, however many challenges a known password opens.
        let result: GuardedCheck
        switch challenge.kind {
        case .totp:
            result = try await req.checkTOTP(of: challenge.userID, owner: user, failureEvent: .signInFailed) {
                try await latch.totp.check(code, user: challenge.userID, now: now, on: req.db) != nil
            }
        case .email:
            let expected = latch.secrets.keyedHash(code, context: "login-challenge:\(id.uuidString.lowercased())")
            result = try await req.guardedCheck(
                throttle: nil, budget: .codes, key: "code:sign_in:\(userKey)", owner: user,
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

    private func refreshGrant(_ body: TokenRequest, _ req: Request) async throws -> TokenResponse {
        guard let token = body.refreshToken else {
            throw LatchError(.validationFailed, status: .badRequest, field: "refresh_token", reasons: ["missing"])
        }
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
