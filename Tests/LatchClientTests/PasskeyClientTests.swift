import Crypto
import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 13 §2 in the SDK: `registerPasskey`, `signInWithPasskey`, `passkeys`, `renamePasskey`,
/// `removePasskey` with the software authenticator, against a fake latchd that checks what it gets
/// (the attestation object's key, then every assertion's signature, challenge and origin).
@Suite("Passkeys in the SDK (issue 13 §2)")
struct PasskeyClientTests {
    static let rpID = "example.com"
    static let origin = "https://example.com"

    /// `SessionFakeServer` plus the passkey endpoints, answered as latchd does.
    actor PasskeyServer: HTTPTransport {
        let inner = SessionFakeServer()
        var recentSignIn = true
        /// Registered passkeys: server id → (credential id, public key, counter).
        private(set) var registered:
            [(id: String, credentialID: String, key: P256.Signing.PublicKey, counter: UInt32)] = []
        private var challenges: [String: String] = [:]
        private var next = 0
        private(set) var tokenGrants: [TokenRequest] = []
        private(set) var optionsEmails: [String?] = []

        func set(recentSignIn: Bool) { self.recentSignIn = recentSignIn }

        private func newChallenge() -> (id: String, challenge: String) {
            next += 1
            let challenge = Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
            challenges["pc-\(next)"] = challenge
            return ("pc-\(next)", challenge)
        }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let path = SessionFakeServer.path(of: request)
            switch (request.method, path) {
            case ("POST", "/v1/passkeys/registration/options"):
                guard try await signedIn(request) else { return SessionFakeServer.sessionExpired }
                let proof = request.body.flatMap {
                    try? JSONDecoder().decode(PasskeyRegistrationOptionsRequest.self, from: $0)
                }?
                .verificationToken
                guard recentSignIn || proof == "proof-add" else { return Self.verificationRequired }
                let (id, challenge) = newChallenge()
                let options = PublicKeyCredentialCreationOptionsJSON(
                    rp: .init(id: rpID, name: "Example"),
                    user: .init(
                        id: Base64URL.encode(Array("alice-handle".utf8)), name: "alice@example.com",
                        displayName: "Alice"),
                    challenge: challenge, pubKeyCredParams: [.init(alg: .es256), .init(alg: .rs256)], timeout: 300_000,
                    excludeCredentials: registered.map { PublicKeyCredentialDescriptorJSON(id: $0.credentialID) },
                    authenticatorSelection: .init(
                        residentKey: "preferred", requireResidentKey: false, userVerification: "required"),
                    attestation: "none")
                return try SessionFakeServer.json(200, PasskeyRegistrationOptions(challengeId: id, options: options))
            case ("POST", "/v1/passkeys"):
                guard try await signedIn(request), let body = request.body,
                    let registration = try? JSONDecoder().decode(PasskeyRegistrationRequest.self, from: body),
                    let challenge = challenges.removeValue(forKey: registration.challengeId)
                else { return Self.refused("challenge_id", "unknown_or_used") }
                let credential = registration.credential
                guard let clientBytes = Base64URL.decode(credential.response.clientDataJSON),
                    let clientData = CollectedClientData.decode(clientBytes), clientData.type == "webauthn.create",
                    clientData.challenge == challenge, clientData.origin == origin,
                    let objectBytes = Base64URL.decode(credential.response.attestationObject),
                    let object = try? AttestationObject(bytes: objectBytes),
                    object.authenticatorData.rpIDHash == Array(SHA256.hash(data: Data(rpID.utf8))),
                    object.authenticatorData.flags.contains(.userVerified),
                    let attested = object.authenticatorData.attestedCredential,
                    case .es256(let key)? = try? COSEPublicKey(cbor: attested.publicKey)
                else { return Self.refused("credential", "invalid") }
                guard !registered.contains(where: { $0.credentialID == credential.id }) else {
                    return SessionFakeServer.json(
                        409, #"{"error":"CONFLICT","message":"x","field":"credential","reasons":["credential_exists"]}"#
                    )
                }
                let id = "pk-\(registered.count + 1)"
                registered.append(
                    (id, Base64URL.encode(attested.credentialID), key, object.authenticatorData.signCount))
                return try SessionFakeServer.json(
                    201,
                    PasskeyCreated(
                        id: id, name: registration.name ?? "Passkey",
                        createdAt: Date(timeIntervalSince1970: 1_800_000_000),
                        backedUp: false, attestation: object.format == "none" ? "none" : "self"))
            case ("GET", "/v1/passkeys"):
                guard try await signedIn(request) else { return SessionFakeServer.sessionExpired }
                return try SessionFakeServer.json(200, registered.map { Self.info($0.id, name: "Passkey") })
            case ("PATCH", _) where path.hasPrefix("/v1/passkeys/"):
                guard try await signedIn(request) else { return SessionFakeServer.sessionExpired }
                let id = String(path.dropFirst("/v1/passkeys/".count))
                guard registered.contains(where: { $0.id == id }), let body = request.body,
                    let rename = try? JSONDecoder().decode(RenamePasskeyRequest.self, from: body)
                else { return SessionFakeServer.json(404, #"{"error":"NOT_FOUND","message":"Not found."}"#) }
                return try SessionFakeServer.json(200, Self.info(id, name: rename.name))
            case ("DELETE", _) where path.hasPrefix("/v1/passkeys/"):
                guard try await signedIn(request) else { return SessionFakeServer.sessionExpired }
                let id = String(path.dropFirst("/v1/passkeys/".count))
                guard registered.contains(where: { $0.id == id }) else {
                    return SessionFakeServer.json(404, #"{"error":"NOT_FOUND","message":"Not found."}"#)
                }
                // The fake account has no password: its only passkey is its last way in.
                guard registered.count > 1 else {
                    return SessionFakeServer.json(
                        409, #"{"error":"CONFLICT","message":"这是账号唯一的登录方式，无法删除","reasons":["last_sign_in_method"]}"#)
                }
                let proof = request.body.flatMap { try? JSONDecoder().decode(RemovePasskeyRequest.self, from: $0) }?
                    .verificationToken
                guard recentSignIn || proof == "proof-remove-\(id)" else { return Self.verificationRequired }
                registered.removeAll { $0.id == id }
                return HTTPResponse(status: 204)
            case ("POST", "/v1/passkeys/authentication/options"):
                let email = request.body.flatMap {
                    try? JSONDecoder().decode(PasskeyAuthenticationOptionsRequest.self, from: $0)
                }?.email
                optionsEmails.append(email)
                let (id, challenge) = newChallenge()
                let allowed: [PublicKeyCredentialDescriptorJSON] =
                    switch email {
                    case nil: []
                    case "alice@example.com"?: registered.map { PublicKeyCredentialDescriptorJSON(id: $0.credentialID) }
                    // An unknown email gets a made-up credential id, as latchd answers.
                    case let other?:
                        [
                            PublicKeyCredentialDescriptorJSON(
                                id: Base64URL.encode(Array(SHA256.hash(data: Data(other.utf8)))))
                        ]
                    }
                let options = PublicKeyCredentialRequestOptionsJSON(
                    challenge: challenge, timeout: 300_000, rpId: rpID, allowCredentials: allowed,
                    userVerification: "required")
                return try SessionFakeServer.json(200, PasskeyAuthenticationOptions(challengeId: id, options: options))
            case ("POST", "/v1/token") where SessionFakeServer.grant(of: request)?.grantType == .passkey:
                let grant = SessionFakeServer.grant(of: request)!
                tokenGrants.append(grant)
                guard let challengeID = grant.challengeId, let challenge = challenges.removeValue(forKey: challengeID),
                    let assertion = grant.credential,
                    let index = registered.firstIndex(where: { $0.credentialID == assertion.rawId }),
                    let clientBytes = Base64URL.decode(assertion.response.clientDataJSON),
                    let clientData = CollectedClientData.decode(clientBytes), clientData.type == "webauthn.get",
                    clientData.challenge == challenge, clientData.origin == origin,
                    let authBytes = Base64URL.decode(assertion.response.authenticatorData),
                    let authData = try? AuthenticatorData(bytes: authBytes), authData.flags.contains(.userVerified),
                    authData.signCount > registered[index].counter,
                    let signatureBytes = Base64URL.decode(assertion.response.signature),
                    let signature = try? P256.Signing.ECDSASignature(derRepresentation: signatureBytes),
                    registered[index].key.isValidSignature(
                        signature, for: Data(authBytes + Array(SHA256.hash(data: Data(clientBytes)))))
                else {
                    return SessionFakeServer.json(
                        401, #"{"error":"AUTH_001","message":"x","reasons":["bad_signature"]}"#)
                }
                registered[index].counter = authData.signCount
                return try SessionFakeServer.json(200, await inner.issueTokens(for: SessionFakeServer.alice))
            default:
                return try await inner.send(request)
            }
        }

        private func signedIn(_ request: HTTPRequest) async throws -> Bool {
            var probe = request
            probe.method = "GET"
            probe.url = URL(string: "https://auth.example.com/v1/me")!
            probe.body = nil
            return try await inner.send(probe).status == 200
        }

        static let verificationRequired = SessionFakeServer.json(
            403,
            #"{"error":"VERIFICATION_REQUIRED","message":"Please verify it is you before doing this.","field":"verification_token"}"#
        )

        static func refused(_ field: String, _ reason: String) -> HTTPResponse {
            SessionFakeServer.json(
                422, #"{"error":"VALIDATION_FAILED","message":"x","field":"\#(field)","reasons":["\#(reason)"]}"#)
        }

        static func info(_ id: String, name: String) -> PasskeyInfo {
            PasskeyInfo(
                id: id, name: name, createdAt: Date(timeIntervalSince1970: 1_800_000_000), lastUsedAt: nil,
                backedUp: false,
                backupEligible: false, transports: ["internal"], attestation: "none")
        }
    }

    struct Device {
        let server: PasskeyServer
        let vault = InMemoryVault()
        let client: LatchClient
        let passkeys: SoftwarePasskeyAuthenticator

        init(server: PasskeyServer = PasskeyServer(), attestation: SoftwareAuthenticator.AttestationFormat = .none) {
            self.server = server
            client = LatchClient(serverURL: URL(string: "https://auth.example.com")!, vault: vault, transport: server)
            passkeys = SoftwarePasskeyAuthenticator(vault: vault, attestation: attestation, origin: { "https://\($0)" })
        }

        func signIn() async throws {
            try await client.signIn(email: "alice@example.com", password: SessionFakeServer.password)
        }
    }

    // MARK: Registration

    @Test(arguments: [SoftwareAuthenticator.AttestationFormat.none, .packedSelf])
    func test_I13_registerPasskeySendsARealCredentialAndKeepsItsKey(format: SoftwareAuthenticator.AttestationFormat)
        async throws
    {
        let device = Device(attestation: format)
        try await device.signIn()

        let created = try await device.client.registerPasskey(name: "Laptop", authenticator: device.passkeys)

        #expect(created.name == "Laptop")
        #expect(created.attestation == (format == .none ? "none" : "self"))
        let stored = try await device.passkeys.storedPasskeys()
        #expect(stored.count == 1)
        #expect(stored.first?.rpID == Self.rpID)
        #expect(stored.first?.serverID == created.id)
        #expect(await device.server.registered.map(\.credentialID) == stored.map(\.credentialID))
    }

    @Test func test_I13_registerWithoutRecentSignInAsksForAddPasskeyStepUp() async throws {
        let device = Device()
        try await device.signIn()
        await device.server.set(recentSignIn: false)

        await #expect {
            try await device.client.registerPasskey(authenticator: device.passkeys)
        } throws: { error in
            guard case PasskeyError.verificationRequired(let action, let parameters) = error else { return false }
            return action == "add_passkey" && parameters.isEmpty
        }
        #expect(try await device.passkeys.storedPasskeys().isEmpty)

        let created = try await device.client.registerPasskey(
            authenticator: device.passkeys, verificationToken: "proof-add")
        #expect(created.id == "pk-1")
    }

    @Test func test_I13_aSecondRegistrationOfTheSamePasskeyIsRefusedOnTheDevice() async throws {
        let device = Device()
        try await device.signIn()
        try await device.client.registerPasskey(authenticator: device.passkeys)

        await #expect {
            try await device.client.registerPasskey(authenticator: device.passkeys)
        } throws: { error in
            if case PasskeyError.alreadyRegistered = error { return true }
            return false
        }
        #expect(await device.server.registered.count == 1)
    }

    // MARK: Sign-in

    @Test(arguments: [nil, "alice@example.com"])
    func test_I13_signInWithPasskeyWithAndWithoutEmail(email: String?) async throws {
        let device = Device()
        try await device.signIn()
        try await device.client.registerPasskey(authenticator: device.passkeys)
        await device.client.signOut()
        #expect(device.client.currentState == .signedOut)

        let user = try await device.client.signInWithPasskey(email: email, authenticator: device.passkeys)

        #expect(user == SessionFakeServer.alice)
        #expect(device.client.currentState == .signedIn(SessionFakeServer.alice))
        #expect(await device.server.optionsEmails == [email])
        let grant = try #require(await device.server.tokenGrants.first)
        #expect(grant.device?.id != nil) // the installation id goes with the grant
        // Discoverable (no email): the user handle from the creation options comes back.
        #expect(grant.credential?.response.userHandle == Base64URL.encode(Array("alice-handle".utf8)))
    }

    @Test func test_I13_eachSignInSignsAHigherCounterAndTheKeysSurviveANewAuthenticator() async throws {
        let device = Device()
        try await device.signIn()
        try await device.client.registerPasskey(authenticator: device.passkeys)

        try await device.client.signInWithPasskey(authenticator: device.passkeys)
        // The CLI makes a new authenticator per run: the key and counter come from the vault.
        let later = SoftwarePasskeyAuthenticator(vault: device.vault, origin: { "https://\($0)" })
        try await device.client.signInWithPasskey(authenticator: later)

        #expect(try await later.storedPasskeys().first?.signCount == 2)
        #expect(await device.server.registered.first?.counter == 2)
    }

    @Test func test_I13_anEmailWithoutPasskeysHereIsNoCredentialAndNothingIsSent() async throws {
        let device = Device()
        try await device.signIn()
        try await device.client.registerPasskey(authenticator: device.passkeys)
        await device.client.signOut()

        await #expect {
            try await device.client.signInWithPasskey(email: "bob@example.com", authenticator: device.passkeys)
        } throws: { error in
            if case PasskeyError.authenticator(.noCredential) = error { return true }
            return false
        }
        #expect(await device.server.tokenGrants.isEmpty)
        #expect(device.client.currentState == .signedOut)
    }

    @Test func test_I13_aRefusedAssertionIsRejectedWithTheServersReasons() async throws {
        let device = Device()
        try await device.signIn()
        try await device.client.registerPasskey(authenticator: device.passkeys)
        await device.client.signOut()
        // Another origin in the client data (a phishing page): the server refuses.
        let phished = SoftwarePasskeyAuthenticator(vault: device.vault, origin: { "https://\($0).evil.test" })

        await #expect {
            try await device.client.signInWithPasskey(authenticator: phished)
        } throws: { error in
            guard case PasskeyError.rejected(let reasons, _) = error else { return false }
            return reasons == ["bad_signature"]
        }
        #expect(device.client.currentState == .signedOut)
    }

    // MARK: Management

    @Test func test_I13_listRenameAndRemovePasskeys() async throws {
        let device = Device()
        try await device.signIn()
        let first = try await device.client.registerPasskey(authenticator: device.passkeys)
        let other = SoftwarePasskeyAuthenticator(vault: InMemoryVault(), origin: { "https://\($0)" })
        let second = try await device.client.registerPasskey(authenticator: other)

        #expect(try await device.client.passkeys().map(\.id) == [first.id, second.id])
        #expect(try await device.client.renamePasskey(id: first.id, name: "Work laptop").name == "Work laptop")

        try await device.client.removePasskey(id: second.id)
        #expect(try await device.client.passkeys().map(\.id) == [first.id])
    }

    @Test func test_I13_removingTheLastWayInIsLastWayIn() async throws {
        let device = Device()
        try await device.signIn()
        let only = try await device.client.registerPasskey(authenticator: device.passkeys)

        await #expect {
            try await device.client.removePasskey(id: only.id)
        } throws: { error in
            guard case PasskeyError.lastWayIn(let message) = error else { return false }
            return message == "这是账号唯一的登录方式，无法删除"
        }
        #expect(try await device.client.passkeys().count == 1)
    }

    @Test func test_I13_removingWithoutRecentSignInAsksForRemovePasskeyStepUpOfThatPasskey() async throws {
        let device = Device()
        try await device.signIn()
        let first = try await device.client.registerPasskey(authenticator: device.passkeys)
        _ = try await device.client.registerPasskey(authenticator: SoftwarePasskeyAuthenticator(vault: InMemoryVault()))
        await device.server.set(recentSignIn: false)

        await #expect {
            try await device.client.removePasskey(id: first.id)
        } throws: { error in
            guard case PasskeyError.verificationRequired(let action, let parameters) = error else { return false }
            return action == "remove_passkey" && parameters == ["passkey_id": first.id]
        }
        try await device.client.removePasskey(id: first.id, verificationToken: "proof-remove-\(first.id)")
        #expect(try await device.passkeys.forget(serverID: first.id))
        #expect(try await device.passkeys.storedPasskeys().isEmpty)
    }

    @Test func test_I13_anUnknownPasskeyIsNotFound() async throws {
        let device = Device()
        try await device.signIn()

        await #expect {
            try await device.client.renamePasskey(id: "pk-9", name: "x")
        } throws: { error in
            if case PasskeyError.notFound = error { return true }
            return false
        }
    }

    @Test func test_I13_developmentOriginFollowsTheServerPortForLocalhost() {
        #expect(
            SoftwarePasskeyAuthenticator.origin(forRPID: "localhost", serverURL: URL(string: "http://127.0.0.1:8123")!)
                == "http://localhost:8123")
        #expect(
            SoftwarePasskeyAuthenticator.origin(
                forRPID: "example.com", serverURL: URL(string: "http://127.0.0.1:8123")!) == "https://example.com")
    }
}
