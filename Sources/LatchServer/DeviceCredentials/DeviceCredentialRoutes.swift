import Fluent
import LatchCore
import Vapor

/// Device keys for biometric sign-in (B5, B6): bind (signed in recently, or with a verification token
/// for `bind_device`), list, unbind, and a fresh login challenge for a bound key.
struct DeviceCredentialRoutes: RouteCollection {
    static let limit = DeviceCredentialStore.limit
    /// The step-up action that unbinds a key without a recent sign-in.
    static let unbindAction = VerificationAction.unbindDevice

    func boot(routes: any RoutesBuilder) throws {
        let credentials = routes.grouped("v1", "device-credentials")
        credentials.post(":id", "challenges", use: challenge)
        let signedIn = credentials.grouped(RequireSignedIn())
        signedIn.post(use: bind)
        signedIn.get(use: list)
        signedIn.delete(":id", use: unbind)
    }

    func bind(_ req: Request) async throws -> Response {
        let me = try req.signedIn
        let body = try req.decodeJSON(DeviceCredentialRequest.self)
        guard let key = DeviceSignature.publicKey(fromBase64URL: body.publicKey) else {
            throw LatchError.invalid("public_key", ["not_p256_x963"])
        }
        // An unknown `biometry` never gets here: decoding it answers 422 `biometry` `["unknown"]`.
        let protection = try Self.protection(body.protection)
        let deviceName = Validate.deviceName(body.deviceName)
        let latch = req.latch
        let canonicalKey = DeviceSignature.publicKeyBase64URL(of: key)
        try await latch.deviceCredentials.checkRoom(for: canonicalKey, user: me.userID, on: req.db)
        // The proof is used only once everything else is known to be fine.
        try await req.requireRecentSignIn(orProof: body.verificationToken, action: .bindDevice)
        let now = latch.clock.epochSeconds
        let credential = DeviceCredential()
        credential.id = UUID()
        credential.userID = me.userID
        credential.publicKey = canonicalKey
        credential.deviceName = deviceName
        credential.biometry = body.biometry?.rawValue
        credential.createdAt = now
        credential.sessionID = me.sessionID
        credential.protection = protection.rawValue
        // The key, its event, the hold and the notice commit together (issue 20 §1).
        try await req.db.transaction { database in
            try await latch.deviceCredentials.insert(credential, on: database)
            try await req.securityChanged(SecurityChange(.deviceKeyAdded, name: deviceName), on: database)
        }
        let created = DeviceCredentialCreated(credentialId: try credential.requireID().uuidString.lowercased())
        return try await created.encodeResponse(status: .created, for: req)
    }

    /// The protection a bind declares: `secure_enclave` or `software`; absent → `unknown`; anything
    /// else (including `unknown`, which only the server assigns) → 422 with `reasons` `["unknown"]`.
    static func protection(_ declared: String?) throws -> DeviceKeyProtection {
        guard let declared else { return .unknown }
        guard let protection = DeviceKeyProtection(rawValue: declared),
            DeviceKeyProtection.bindable.contains(protection)
        else {
            throw LatchError.invalid("protection", ["unknown"])
        }
        return protection
    }

    func list(_ req: Request) async throws -> [DeviceCredentialInfo] {
        let me = try req.signedIn
        return try await req.latch.deviceCredentials.all(of: me.userID, on: req.db).map {
            DeviceCredentialInfo(
                id: $0.id?.uuidString.lowercased() ?? "", deviceName: $0.deviceName, biometry: $0.biometry,
                createdAt: Date(timeIntervalSince1970: $0.createdAt),
                lastUsedAt: $0.lastUsedAt.map(Date.init(timeIntervalSince1970:)),
                protection: $0.protection)
        }
    }

    /// Removing a key is guarded like binding one (issue 10 §2): a stolen access token must not strip
    /// the owner's biometric sign-in. It needs a sign-in within 10 minutes, or a verification token
    /// for action `unbind_device` with parameters `{credential_id}` (optional body `{verification_token}`).
    func unbind(_ req: Request) async throws -> HTTPStatus {
        let me = try req.signedIn
        let hasBody = req.body.data.map { $0.readableBytes > 0 } == true
        let proof = hasBody ? try req.decodeJSON(UnbindDeviceCredentialRequest.self).verificationToken : nil
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)),
            let credential = try await req.latch.deviceCredentials.find(id, of: me.userID, on: req.db)
        else { throw LatchError.notFound }
        // The proof is used only once the key is known to be the user's.
        try await req.requireRecentSignIn(
            orProof: proof, action: Self.unbindAction, parameters: ["credential_id": id.uuidString.lowercased()])
        // The removal, its event and the owner's notice commit together (issue 28: it was silent).
        let name = credential.deviceName
        try await req.db.transaction { database in
            try await req.latch.deviceCredentials.remove(credential, on: database)
            try await req.securityChanged(SecurityChange(.deviceKeyRemoved, name: name), on: database)
        }
        return .noContent
    }

    func challenge(_ req: Request) async throws -> Response {
        try req.chargeRateLimit(.deviceChallenge)
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)),
            try await req.latch.deviceCredentials.find(id, on: req.db) != nil
        else { throw LatchError.notFound }
        let now = req.latch.clock.epochSeconds
        let wait = try await req.latch.challenges.loginChallengeWait(credential: id, now: now, on: req.db)
        guard wait == 0 else { throw LatchError.rateLimited(retryAfter: wait) }
        let challenge = try await req.latch.challenges.create(credential: id, now: now, on: req.db)
        let info = SignatureChallengeInfo(
            challengeId: try challenge.requireID().uuidString.lowercased(), challenge: challenge.challenge,
            expiresIn: Int(SignatureChallenge.lifetime))
        return try await info.encodeResponse(status: .created, for: req)
    }
}
