import Fluent
import LatchCore
import Vapor

/// Device keys for biometric sign-in (B5, B6): bind (signed in recently, or with a verification token
/// for `bind_device`), list, unbind, and a fresh login challenge for a bound key.
struct DeviceCredentialRoutes: RouteCollection {
    static let limit = 10
    static let biometryKinds: Set<String> = ["face_id", "touch_id", "optic_id"]

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
        let deviceName = Validate.deviceName(body.deviceName)
        let latch = req.latch
        let existing = try await DeviceCredential.query(on: req.db).filter(\.$userID == me.userID).all()
        guard existing.count < Self.limit else { throw LatchError(.limitReached, status: .conflict) }
        let canonicalKey = DeviceSignature.publicKeyBase64URL(of: key)
        guard !existing.contains(where: { $0.publicKey == canonicalKey }) else { throw LatchError(.conflict, status: .conflict) }
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
        try await credential.create(on: req.db)
        try await latch.events.record(.deviceBound, user: me.userID, session: me.sessionID, ip: req.clientIP, now: now, on: req.db)
        if let email = try await User.find(me.userID, on: req.db)?.email {
            await latch.send(MailTemplates.deviceBound(deviceName: deviceName, language: req.language), to: email)
        }
        let created = DeviceCredentialCreated(credentialId: try credential.requireID().uuidString.lowercased())
        return try await created.encodeResponse(status: .created, for: req)
    }

    func list(_ req: Request) async throws -> [DeviceCredentialInfo] {
        let me = try req.signedIn
        return try await DeviceCredential.query(on: req.db).filter(\.$userID == me.userID).sort(\.$createdAt).all().map {
            DeviceCredentialInfo(
                id: $0.id?.uuidString.lowercased() ?? "", deviceName: $0.deviceName, biometry: $0.biometry,
                createdAt: Date(timeIntervalSince1970: $0.createdAt), lastUsedAt: $0.lastUsedAt.map(Date.init(timeIntervalSince1970:)))
        }
    }

    func unbind(_ req: Request) async throws -> HTTPStatus {
        let me = try req.signedIn
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)),
            let credential = try await DeviceCredential.find(id, on: req.db), credential.userID == me.userID
        else { throw LatchError.notFound }
        try await credential.delete(on: req.db)
        try await req.latch.events.record(
            .deviceUnbound, user: me.userID, session: me.sessionID, ip: req.clientIP, now: req.latch.clock.epochSeconds, on: req.db)
        return .noContent
    }

    func challenge(_ req: Request) async throws -> Response {
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)),
            try await DeviceCredential.find(id, on: req.db) != nil
        else { throw LatchError.notFound }
        let challenge = try await req.latch.challenges.create(credential: id, now: req.latch.clock.epochSeconds, on: req.db)
        let info = SignatureChallengeInfo(
            challengeId: try challenge.requireID().uuidString.lowercased(), challenge: challenge.challenge,
            expiresIn: Int(SignatureChallenge.lifetime))
        return try await info.encodeResponse(status: .created, for: req)
    }
}
