import FluentKit
import Foundation
import LatchCore

/// Device keys for biometric sign-in (B5, B6), without HTTP (issue 29 §1): bind (a recent sign-in or a
/// proof for `bind_device`), list, unbind (a recent sign-in or a proof for `unbind_device`), and a fresh
/// login challenge for a bound key. `DeviceCredentialRoutes` is its HTTP edge.
struct DeviceCredentialService: Sendable {
    let latch: LatchServices
    let db: any Database

    /// Binds the caller's device key: a security change (mailed, held). 422 for a key that is not P-256
    /// or an unknown protection; 409 when the account has its 10 keys or the key is bound already.
    func bind(_ request: DeviceCredentialRequest, by caller: Caller) async throws -> DeviceCredentialCreated {
        guard let key = DeviceSignature.publicKey(fromBase64URL: request.publicKey) else {
            throw LatchError.invalid("public_key", ["not_p256_x963"])
        }
        // An unknown `biometry` never gets here: decoding it answers 422 `biometry` `["unknown"]`.
        let protection = try Self.protection(request.protection)
        let deviceName = Validate.deviceName(request.deviceName)
        let latch = self.latch
        let canonicalKey = DeviceSignature.publicKeyBase64URL(of: key)
        let app = try Self.app(request.app)
        try await latch.deviceCredentials.checkRoom(for: canonicalKey, user: caller.user, on: db)
        // App Attest (issue 31 §2) vouches for the key as sent; a refusal leaves the step-up proof unused.
        let attested = try await AppAttestService(latch: latch, db: db).attestBinding(
            request.appAttest, publicKey: request.publicKey, user: caller.user)
        if let attested, let app, app.bundleId != attested.key.bundleID {
            throw LatchError.invalid("app", ["bundle_id_not_attested"])
        }
        // The proof is used only once everything else is known to be fine.
        try await StepUp(latch: latch, caller: caller, db: db)
            .requireRecentSignIn(orProof: request.verificationToken, action: .bindDevice)
        let credential = DeviceCredential()
        credential.id = UUID()
        credential.userID = caller.user
        credential.publicKey = canonicalKey
        credential.deviceName = deviceName
        credential.biometry = request.biometry?.rawValue
        credential.createdAt = latch.clock.epochSeconds
        credential.sessionID = caller.session
        credential.protection = protection.rawValue
        credential.appBundleID = attested?.key.bundleID ?? app?.bundleId
        credential.appVersion = app?.version
        if let attested {
            credential.appAttestKeyID = attested.keyID
            credential.appAttestPublicKey = Base64URL.encode(attested.key.publicKey)
            credential.appAttestCounter = 0
            credential.appAttestEnvironment = attested.environment.rawValue
            credential.appAttestAppID = attested.key.appID
            credential.appAttestReceipt = Data(attested.key.receipt).base64EncodedString()
        }
        // The key, its event, the hold and the notice commit together (issue 20 §1).
        try await db.tracedTransaction { database in
            if let attested,
                try await !latch.appAttestStore.recordBinding(
                    of: attested.keyID, now: credential.createdAt, on: database)
            {
                throw AppAttestService.refused(.keyIDUsed)
            }
            try await latch.deviceCredentials.insert(credential, on: database)
            try await latch.securityChanges.apply(
                SecurityChange(.deviceKeyAdded, name: deviceName), by: caller.changeActor, on: database)
        }
        return DeviceCredentialCreated(credentialId: try credential.requireID().uuidString.lowercased())
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

    /// The app a bind names, checked: a bundle id of 1–155 letters, digits, dots and hyphens, and a version
    /// of 1–64 letters, digits, dots, plus and minus signs (422 `app` `["invalid"]`).
    static func app(_ declared: AppIdentity?) throws -> AppIdentity? {
        guard let declared else { return nil }
        guard declared.bundleId.count <= 155, Validate.isASCIIWord(declared.bundleId, allowing: [".", "-"]),
            declared.version.map({ $0.count <= 64 && Validate.isASCIIWord($0, allowing: [".", "+", "-"]) }) ?? true
        else { throw LatchError.invalid("app", ["invalid"]) }
        return declared
    }

    /// The caller's bound keys.
    func list(of caller: Caller) async throws -> [DeviceCredentialInfo] {
        try await latch.deviceCredentials.all(of: caller.user, on: db).map(\.info)
    }

    /// Unbinds key `id` of the caller. Guarded like binding (issue 10 §2: a stolen access token must not
    /// strip the owner's biometric sign-in): a recent sign-in, or a proof for `unbind_device` with
    /// parameters `{credential_id}`; a security change (mailed, issue 28). 404 for a key not the caller's.
    func unbind(_ id: UUID?, proof: String?, by caller: Caller) async throws {
        let latch = self.latch
        guard let id, let credential = try await latch.deviceCredentials.find(id, of: caller.user, on: db) else {
            throw LatchError.notFound
        }
        // The proof is used only once the key is known to be the caller's.
        try await StepUp(latch: latch, caller: caller, db: db).requireRecentSignIn(
            orProof: proof, action: .unbindDevice, parameters: ["credential_id": id.uuidString.lowercased()])
        let name = credential.deviceName
        try await db.tracedTransaction { database in
            try await latch.deviceCredentials.remove(credential, on: database)
            try await latch.securityChanges.apply(
                SecurityChange(.deviceKeyRemoved, name: name), by: caller.changeActor, on: database)
        }
    }

    /// A fresh login challenge for bound key `id` (no sign-in: the key signs in); 404 for an unknown key,
    /// 429 while the key's last challenge is too recent.
    func loginChallenge(for id: UUID?) async throws -> SignatureChallengeInfo {
        guard let id, try await latch.deviceCredentials.find(id, on: db) != nil else { throw LatchError.notFound }
        let now = latch.clock.epochSeconds
        let wait = try await latch.challenges.loginChallengeWait(credential: id, now: now, on: db)
        guard wait == 0 else { throw LatchError.rateLimited(retryAfter: wait) }
        let challenge = try await latch.challenges.create(credential: id, now: now, on: db)
        return SignatureChallengeInfo(
            challengeId: try challenge.requireID().uuidString.lowercased(), challenge: challenge.challenge,
            expiresIn: Int(SignatureChallenge.lifetime))
    }
}
