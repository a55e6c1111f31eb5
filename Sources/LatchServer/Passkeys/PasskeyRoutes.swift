import Fluent
import LatchCore
import SQLKit
import Vapor

extension PasskeyRegistrationOptions: Content {}
extension PasskeyCreated: Content {}
extension PasskeyInfo: Content {}
extension PasskeyAuthenticationOptions: Content {}

/// Passkeys (issue 13): registration (a sign-in within 10 minutes or a verification token for
/// `add_passkey`), list, rename and removal (like unbinding a device key; never the last way in),
/// and the sign-in options for grant `passkey`, which need no sign-in.
struct PasskeyRoutes: RouteCollection {
    /// The step-up action that adds a passkey without a recent sign-in.
    static let addAction = VerificationAction.addPasskey
    /// The step-up action (parameters `{passkey_id}`) that removes a passkey without a recent sign-in.
    static let removeAction = VerificationAction.removePasskey
    /// The step-up action (parameters `{passkey_id}`) that renames a passkey without a recent sign-in:
    /// a name is what the owner trusts in the list and in mails, so it is guarded like adding one.
    static let renameAction = VerificationAction.renamePasskey
    /// What the options tell the browser to wait, in milliseconds (the challenge's lifetime).
    static let timeout = Int(PasskeyChallenge.lifetime * 1000)

    func boot(routes: any RoutesBuilder) throws {
        let passkeys = routes.grouped("v1", "passkeys")
        passkeys.post("authentication", "options", use: authenticationOptions)
        let signedIn = passkeys.grouped(RequireSignedIn())
        signedIn.post("registration", "options", use: registrationOptions)
        signedIn.post(use: register)
        signedIn.get(use: list)
        signedIn.patch(":id", use: rename)
        signedIn.delete(":id", use: remove)
    }

    // MARK: Registration

    func registrationOptions(_ req: Request) async throws -> PasskeyRegistrationOptions {
        let me = try req.signedIn
        let hasBody = req.body.data.map { $0.readableBytes > 0 } == true
        let proof = hasBody ? try req.decodeJSON(PasskeyRegistrationOptionsRequest.self).verificationToken : nil
        guard let user = try await User.find(me.userID, on: req.db) else { throw LatchError.sessionExpired }
        let existing = try await req.latch.passkeys.all(of: me.userID, on: req.db)
        guard existing.count < Passkey.limit else { throw LatchError(.limitReached) }
        // The proof is used only once everything else is known to be fine.
        try await req.requireRecentSignIn(orProof: proof, action: Self.addAction)
        let latch = req.latch
        let challenge = try await PasskeyChallengeStore().create(
            .registration, user: me.userID, now: latch.clock.epochSeconds, on: req.db)
        let relyingParty = latch.config.relyingParty
        let accountName = user.email ?? user.nickname ?? "Latch"
        let options = PublicKeyCredentialCreationOptionsJSON(
            rp: .init(id: relyingParty.id, name: relyingParty.name),
            user: .init(
                id: Base64URL.encode(PasskeyUserHandle.of(me.userID, secrets: latch.secrets)), name: accountName,
                displayName: user.nickname ?? accountName),
            challenge: challenge.challenge, pubKeyCredParams: [.init(alg: .es256), .init(alg: .rs256)],
            timeout: Self.timeout,
            excludeCredentials: existing.map {
                PublicKeyCredentialDescriptorJSON(id: $0.credentialID, transports: $0.transportList)
            },
            authenticatorSelection: .init(
                residentKey: "preferred", requireResidentKey: false, userVerification: "required"),
            attestation: "none")
        return PasskeyRegistrationOptions(
            challengeId: try challenge.requireID().uuidString.lowercased(), options: options)
    }

    func register(_ req: Request) async throws -> Response {
        let me = try req.signedIn
        let body = try req.decodeJSON(PasskeyRegistrationRequest.self)
        let name = try Self.validName(body.name, field: "name") ?? "Passkey"
        let transports = (body.credential.response.transports ?? []).filter(Self.isTransport)
        let latch = req.latch
        let now = latch.clock.epochSeconds
        // The challenge is used up before anything else is checked: one try per challenge.
        guard let challengeID = UUID(uuidString: body.challengeId),
            let challenge = try await PasskeyChallengeStore().consume(
                challengeID, .registration, user: me.userID, now: now, on: req.db)
        else { throw LatchError.invalid("challenge_id", ["unknown_or_used"]) }
        let checked: PasskeyVerifier.Registration
        do throws(PasskeyCheckFailure) {
            checked = try PasskeyVerifier(relyingParty: latch.config.relyingParty)
                .verifyRegistration(body.credential, challenge: challenge.challenge)
        } catch {
            throw LatchError.invalid("credential", [error.rawValue])
        }
        let passkey = Passkey()
        passkey.id = UUID()
        passkey.userID = me.userID
        passkey.credentialID = checked.credentialID
        passkey.publicKey = checked.publicKey
        passkey.name = name
        passkey.transports = transports.joined(separator: ",")
        passkey.signCount = Int64(checked.signCount)
        passkey.backupEligible = checked.backupEligible
        passkey.backedUp = checked.backedUp
        passkey.attestation = checked.attestation
        passkey.aaguid = checked.aaguid
        passkey.createdAt = now
        passkey.sessionID = me.sessionID
        // The passkey, its event, the hold and the notice commit together (issue 20 §1).
        try await req.db.transaction { database in
            try await latch.passkeys.insert(passkey, on: database)
            try await req.securityChanged(SecurityChange(.passkeyAdded, name: name), on: database)
        }
        let created = PasskeyCreated(
            id: try passkey.requireID().uuidString.lowercased(), name: name,
            createdAt: Date(timeIntervalSince1970: now),
            backedUp: checked.backedUp, attestation: checked.attestation)
        return try await created.encodeResponse(status: .created, for: req)
    }

    // MARK: Management

    func list(_ req: Request) async throws -> [PasskeyInfo] {
        let me = try req.signedIn
        return try await req.latch.passkeys.all(of: me.userID, on: req.db).map(\.info)
    }

    /// Renaming needs the recency adding needs (issue 20 §7): a sign-in within 10 minutes, or a
    /// verification token for `rename_passkey` with parameters `{passkey_id}`.
    func rename(_ req: Request) async throws -> PasskeyInfo {
        let me = try req.signedIn
        let body = try req.decodeJSON(RenamePasskeyRequest.self)
        guard let name = try Self.validName(body.name, field: "name") else { throw LatchError.missing("name") }
        let passkey = try await Self.find(req, user: me.userID)
        try await req.requireRecentSignIn(
            orProof: body.verificationToken, action: Self.renameAction,
            parameters: ["passkey_id": try passkey.requireID().uuidString.lowercased()])
        passkey.name = name
        try await passkey.save(on: req.db)
        return passkey.info
    }

    /// Removing a passkey is guarded like unbinding a device key: a sign-in within 10 minutes, or a
    /// verification token for `remove_passkey` with parameters `{passkey_id}` (optional body
    /// `{verification_token}`). The account's last way in is never removed (409).
    func remove(_ req: Request) async throws -> HTTPStatus {
        let me = try req.signedIn
        let hasBody = req.body.data.map { $0.readableBytes > 0 } == true
        let proof = hasBody ? try req.decodeJSON(RemovePasskeyRequest.self).verificationToken : nil
        let passkey = try await Self.find(req, user: me.userID)
        let id = try passkey.requireID()
        // Checked before the proof is used, and again under the lock below.
        guard try await User.waysToSignIn(of: me.userID, on: req.db) > 1 else { throw Self.lastWayIn(req) }
        try await req.requireRecentSignIn(
            orProof: proof, action: Self.removeAction, parameters: ["passkey_id": id.uuidString.lowercased()])
        let (latch, name) = (req.latch, passkey.name)
        let removed: Bool = try await req.db.transaction { database in
            guard try await latch.passkeys.remove(passkey, on: database) else { return false }
            // The event and the notice commit with the removal (issue 20 §1).
            try await req.securityChanged(SecurityChange(.passkeyRemoved, name: name), on: database)
            return true
        }
        guard removed else { throw Self.lastWayIn(req) }
        return .noContent
    }

    private static func lastWayIn(_ req: Request) -> LatchError {
        LatchError(
            .conflict, reasons: ["last_sign_in_method"],
            message: ErrorMessage.lastSignInMethod(.remove).text(in: req.language))
    }

    private static func find(_ req: Request, user: UUID) async throws -> Passkey {
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)),
            let passkey = try await req.latch.passkeys.find(id, of: user, on: req.db)
        else { throw LatchError.notFound }
        return passkey
    }

    /// A passkey name: at most 64 characters as sent (trimmed; more is 422), then cleaned as mail
    /// display text is (issue 20 §7: NFKC, no control, bidi or zero-width characters), since it is
    /// shown in mails and on the account page; nil when absent or nothing visible is left.
    static func validName(_ raw: String?, field: String) throws -> String? {
        guard let trimmed = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= 64 else { throw LatchError.invalid(field, ["invalid"]) }
        return MailDisplayText.cleaned(trimmed)
    }

    /// The transports WebAuthn Level 3 names; others are dropped.
    static func isTransport(_ raw: String) -> Bool {
        ["usb", "nfc", "ble", "smart-card", "hybrid", "internal"].contains(raw)
    }

    // MARK: Sign-in options

    /// No sign-in needed, and the same answer for everyone (issue 20 §7): `allowCredentials` is
    /// always empty, so the options say nothing of whether an email has an account or how many
    /// passkeys it has; any discoverable passkey of this RP may be offered by the browser. With an
    /// email, the challenge remembers the account it named, and only that account's passkeys may
    /// answer it (§7.2 step 5; none when the email has no account) — refused like an unknown
    /// credential. (Passkeys that are not discoverable cannot sign in by email this way.)
    func authenticationOptions(_ req: Request) async throws -> PasskeyAuthenticationOptions {
        try req.chargeRateLimit(.deviceChallenge)
        let hasBody = req.body.data.map { $0.readableBytes > 0 } == true
        let rawEmail = hasBody ? try req.decodeJSON(PasskeyAuthenticationOptionsRequest.self).email : nil
        let latch = req.latch
        let now = latch.clock.epochSeconds
        var named: UUID?
        if let rawEmail {
            let email = try Validate.email(rawEmail)
            named = try await User.query(on: req.db).filter(\.$email == email.value).filter(\.$deletedAt == nil)
                .first()?.requireID()
        }
        let store = PasskeyChallengeStore()
        try await store.deleteExpired(now: now, on: req.db)
        let challenge = try await store.create(
            .authentication, user: named, namesUser: rawEmail != nil, now: now, on: req.db)
        let options = PublicKeyCredentialRequestOptionsJSON(
            challenge: challenge.challenge, timeout: Self.timeout, rpId: latch.config.relyingParty.id,
            allowCredentials: [], userVerification: "required")
        return PasskeyAuthenticationOptions(
            challengeId: try challenge.requireID().uuidString.lowercased(), options: options)
    }
}

extension Passkey {
    var transportList: [String] { transports.split(separator: ",").map(String.init) }

    var info: PasskeyInfo {
        PasskeyInfo(
            id: id?.uuidString.lowercased() ?? "", name: name, createdAt: Date(timeIntervalSince1970: createdAt),
            lastUsedAt: lastUsedAt.map(Date.init(timeIntervalSince1970:)), backedUp: backedUp,
            backupEligible: backupEligible,
            transports: transportList, attestation: attestation)
    }
}
