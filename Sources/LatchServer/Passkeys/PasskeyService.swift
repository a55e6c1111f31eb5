import FluentKit
import Foundation
import LatchCore

/// The caller's passkeys (issue 13) without HTTP (issue 29 §1): registration (a sign-in within 10 minutes
/// or a verification token for `add_passkey`), list, rename and removal (like unbinding a device key;
/// never the last way in). `PasskeyRoutes` is its HTTP edge; the sign-in options are `PasskeySignIn`'s.
struct PasskeyService: Sendable {
    let latch: LatchServices
    let caller: Caller
    let db: any Database

    /// The step-up action that adds a passkey without a recent sign-in.
    static let addAction = VerificationAction.addPasskey
    /// The step-up action (parameters `{passkey_id}`) that removes a passkey without a recent sign-in.
    static let removeAction = VerificationAction.removePasskey
    /// The step-up action (parameters `{passkey_id}`) that renames a passkey without a recent sign-in:
    /// a name is what the owner trusts in the list and in mails, so it is guarded like adding one.
    static let renameAction = VerificationAction.renamePasskey
    /// What the options tell the browser to wait, in milliseconds (the challenge's lifetime).
    static let timeout = Int(PasskeyChallenge.lifetime * 1000)

    private var stepUp: StepUp { StepUp(latch: latch, caller: caller, db: db) }

    // MARK: Registration

    /// The creation options of a new passkey, after the step-up (`proof`, or a recent sign-in).
    func registrationOptions(proof: String?) async throws -> PasskeyRegistrationOptions {
        guard let user = try await latch.accounts.user(caller.user, on: db) else { throw LatchError.sessionExpired }
        let existing = try await latch.passkeys.all(of: caller.user, on: db)
        guard existing.count < Passkey.limit else { throw LatchError(.limitReached) }
        // The proof is used only once everything else is known to be fine.
        try await stepUp.requireRecentSignIn(orProof: proof, action: Self.addAction)
        let challenge = try await PasskeyChallengeStore().create(
            .registration, user: caller.user, now: latch.clock.epochSeconds, on: db)
        let relyingParty = latch.config.relyingParty
        let accountName = user.email ?? user.nickname ?? "Latch"
        let options = PublicKeyCredentialCreationOptionsJSON(
            rp: .init(id: relyingParty.id, name: relyingParty.name),
            user: .init(
                id: Base64URL.encode(PasskeyUserHandle.of(caller.user, secrets: latch.secrets)), name: accountName,
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

    /// Registers the passkey `credential` answering registration challenge `challengeID`, named `name`
    /// (cleaned by the edge), with the `transports` WebAuthn names. A security change (held, mailed).
    func register(challengeID: String, credential: RegistrationResponseJSON, name: String, transports: [String])
        async throws -> PasskeyCreated
    {
        let (latch, caller) = (self.latch, self.caller)
        let now = latch.clock.epochSeconds
        // The challenge is used up before anything else is checked: one try per challenge.
        guard let id = UUID(uuidString: challengeID),
            let challenge = try await PasskeyChallengeStore().consume(
                id, .registration, user: caller.user, now: now, on: db)
        else { throw LatchError.invalid("challenge_id", ["unknown_or_used"]) }
        let checked: PasskeyVerifier.Registration
        do throws(PasskeyCheckFailure) {
            checked = try PasskeyVerifier(relyingParty: latch.config.relyingParty)
                .verifyRegistration(credential, challenge: challenge.challenge)
        } catch {
            throw LatchError.invalid("credential", [error.rawValue])
        }
        let passkey = Passkey()
        passkey.id = UUID()
        passkey.userID = caller.user
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
        passkey.sessionID = caller.session
        // The passkey, its event, the hold and the notice commit together (issue 20 §1).
        try await db.tracedTransaction { database in
            try await latch.passkeys.insert(passkey, on: database)
            try await latch.securityChanges.apply(
                SecurityChange(.passkeyAdded, name: name), by: caller.changeActor, on: database)
        }
        return PasskeyCreated(
            id: try passkey.requireID().uuidString.lowercased(), name: name,
            createdAt: Date(timeIntervalSince1970: now),
            backedUp: checked.backedUp, attestation: checked.attestation)
    }

    // MARK: Management

    func list() async throws -> [PasskeyInfo] {
        try await latch.passkeys.all(of: caller.user, on: db).map(\.info)
    }

    /// Renaming needs the recency adding needs (issue 20 §7): a sign-in within 10 minutes, or a
    /// verification token for `rename_passkey` with parameters `{passkey_id}`.
    func rename(_ id: UUID?, to name: String, proof: String?) async throws -> PasskeyInfo {
        let passkey = try await find(id)
        try await stepUp.requireRecentSignIn(
            orProof: proof, action: Self.renameAction,
            parameters: ["passkey_id": try passkey.requireID().uuidString.lowercased()])
        passkey.name = name
        try await latch.passkeys.save(passkey, on: db)
        return passkey.info
    }

    /// Removing a passkey is guarded like unbinding a device key: a sign-in within 10 minutes, or a
    /// verification token for `remove_passkey` with parameters `{passkey_id}`. The account's last way in
    /// is never removed (409).
    func remove(_ id: UUID?, proof: String?) async throws {
        let (latch, caller) = (self.latch, self.caller)
        let passkey = try await find(id)
        let passkeyID = try passkey.requireID()
        // Checked before the proof is used, and again under the lock below.
        guard try await User.waysToSignIn(of: caller.user, accounts: latch.accounts, on: db) > 1 else {
            throw lastWayIn
        }
        try await stepUp.requireRecentSignIn(
            orProof: proof, action: Self.removeAction, parameters: ["passkey_id": passkeyID.uuidString.lowercased()])
        let name = passkey.name
        let removed: Bool = try await db.tracedTransaction { database in
            guard try await latch.passkeys.remove(passkey, on: database) else { return false }
            // The event and the notice commit with the removal (issue 20 §1).
            try await latch.securityChanges.apply(
                SecurityChange(.passkeyRemoved, name: name), by: caller.changeActor, on: database)
            return true
        }
        guard removed else { throw lastWayIn }
    }

    private var lastWayIn: LatchError {
        LatchError(
            .conflict, reasons: ["last_sign_in_method"],
            message: ErrorMessage.lastSignInMethod(.remove).text(in: caller.language))
    }

    private func find(_ id: UUID?) async throws -> Passkey {
        guard let id, let passkey = try await latch.passkeys.find(id, of: caller.user, on: db) else {
            throw LatchError.notFound
        }
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
