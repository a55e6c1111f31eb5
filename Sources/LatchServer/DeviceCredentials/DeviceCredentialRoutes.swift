import Fluent
import LatchCore
import Vapor

/// Device keys for biometric sign-in (B5, B6): bind (signed in recently, or with a verification token
/// for `bind_device`), list, unbind, and a fresh login challenge for a bound key.
struct DeviceCredentialRoutes: RouteCollection {
    static let limit = 10
    static let biometryKinds: Set<String> = ["face_id", "touch_id", "optic_id"]
    /// The step-up action that unbinds a key without a recent sign-in.
    static let unbindAction = "unbind_device"

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
        if let biometry = body.biometry, !Self.biometryKinds.contains(biometry) {
            throw LatchError.invalid("biometry", ["unknown"])
        }
        let protection = try Self.protection(body.protection)
        let deviceName = Validate.deviceName(body.deviceName)
        let latch = req.latch
        let canonicalKey = DeviceSignature.publicKeyBase64URL(of: key)
        try await Self.checkRoom(for: canonicalKey, user: me.userID, on: req.db)
        // The proof is used only once everything else is known to be fine.
        try await req.requireRecentSignIn(orProof: body.verificationToken, action: "bind_device")
        let now = latch.clock.epochSeconds
        let credential = DeviceCredential()
        credential.id = UUID()
        credential.userID = me.userID
        credential.publicKey = canonicalKey
        credential.deviceName = deviceName
        credential.biometry = body.biometry
        credential.createdAt = now
        credential.sessionID = me.sessionID
        credential.protection = protection.rawValue
        try await Self.insert(credential, on: req.db)
        try await latch.events.record(.deviceBound, user: me.userID, session: me.sessionID, ip: req.clientIP, now: now, on: req.db)
        if let email = try await User.find(me.userID, on: req.db)?.email {
            try await latch.send(MailTemplates.deviceBound(deviceName: deviceName, language: req.language), to: email)
        }
        let created = DeviceCredentialCreated(credentialId: try credential.requireID().uuidString.lowercased())
        return try await created.encodeResponse(status: .created, for: req)
    }

    /// Inserts `credential` unless its user has `limit` keys or this key already, also under
    /// concurrent binds: on SQLite in one statement (statements run under its single write lock), on
    /// PostgreSQL in a transaction that first locks the user's row, so concurrent binds queue.
    static func insert(_ credential: DeviceCredential, on database: any Database) async throws {
        guard database.sql.dialect.name == "sqlite" else {
            try await database.transaction { database in
                try await database.sql.raw("SELECT id FROM users WHERE id = \(bind: credential.userID) FOR UPDATE").run()
                try await checkRoom(for: credential.publicKey, user: credential.userID, on: database)
                try await credential.create(on: database)
            }
            return
        }
        let inserted = try await database.sql.raw("""
            INSERT INTO device_credentials (id, user_id, public_key, device_name, biometry, created_at, session_id, protection)
            SELECT \(bind: credential.requireID()), \(bind: credential.userID), \(bind: credential.publicKey),
              \(bind: credential.deviceName), \(bind: credential.biometry), \(bind: credential.createdAt),
              \(bind: credential.sessionID), \(bind: credential.protection)
            WHERE (SELECT COUNT(*) FROM device_credentials WHERE user_id = \(bind: credential.userID)) < \(bind: limit)
              AND NOT EXISTS (SELECT 1 FROM device_credentials
                              WHERE user_id = \(bind: credential.userID) AND public_key = \(bind: credential.publicKey))
            RETURNING id
            """).all()
        // Lost a race: say why, as the check before would have.
        if inserted.isEmpty { try await checkRoom(for: credential.publicKey, user: credential.userID, on: database) }
        if inserted.isEmpty { throw LatchError(.limitReached, status: .conflict) }
    }

    /// The protection a bind declares: `secure_enclave` or `software`; absent → `unknown`; anything
    /// else (including `unknown`, which only the server assigns) → 422 with `reasons` `["unknown"]`.
    static func protection(_ declared: String?) throws -> DeviceKeyProtection {
        guard let declared else { return .unknown }
        guard let protection = DeviceKeyProtection(rawValue: declared), DeviceKeyProtection.bindable.contains(protection) else {
            throw LatchError.invalid("protection", ["unknown"])
        }
        return protection
    }

    /// Refuses a key the user already bound (409 CONFLICT) or an eleventh key (409 LIMIT_REACHED).
    static func checkRoom(for publicKey: String, user: UUID, on database: any Database) async throws {
        let existing = try await DeviceCredential.query(on: database).filter(\.$userID == user).all()
        guard existing.count < limit else { throw LatchError(.limitReached, status: .conflict) }
        guard !existing.contains(where: { $0.publicKey == publicKey }) else { throw LatchError(.conflict, status: .conflict) }
    }

    func list(_ req: Request) async throws -> [DeviceCredentialInfo] {
        let me = try req.signedIn
        return try await DeviceCredential.query(on: req.db).filter(\.$userID == me.userID).sort(\.$createdAt).all().map {
            DeviceCredentialInfo(
                id: $0.id?.uuidString.lowercased() ?? "", deviceName: $0.deviceName, biometry: $0.biometry,
                createdAt: Date(timeIntervalSince1970: $0.createdAt), lastUsedAt: $0.lastUsedAt.map(Date.init(timeIntervalSince1970:)),
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
            let credential = try await DeviceCredential.find(id, on: req.db), credential.userID == me.userID
        else { throw LatchError.notFound }
        // The proof is used only once the key is known to be the user's.
        try await req.requireRecentSignIn(
            orProof: proof, action: Self.unbindAction, parameters: ["credential_id": id.uuidString.lowercased()])
        try await req.db.sql.raw("DELETE FROM signature_challenges WHERE credential_id = \(bind: id)").run()
        try await credential.delete(on: req.db)
        try await req.latch.events.record(
            .deviceUnbound, user: me.userID, session: me.sessionID, ip: req.clientIP, now: req.latch.clock.epochSeconds, on: req.db)
        return .noContent
    }

    func challenge(_ req: Request) async throws -> Response {
        try req.chargeRateLimit(.deviceChallenge)
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)),
            try await DeviceCredential.find(id, on: req.db) != nil
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
