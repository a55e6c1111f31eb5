import Crypto
import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes latchd's passkey endpoints over `SessionFakeServer`, checking every attestation and assertion as latchd does.
actor PasskeyServer: HTTPTransport {
    static let rpID = "example.com"
    static let origin = "https://example.com"

    let inner = SessionFakeServer()
    var recentSignIn = true
    /// Registered passkeys: server id → (credential id, public key, counter).
    private(set) var registered: [(id: String, credentialID: String, key: P256.Signing.PublicKey, counter: UInt32)] = []
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
                rp: .init(id: Self.rpID, name: "Example"),
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
                clientData.challenge == challenge, clientData.origin == Self.origin,
                let objectBytes = Base64URL.decode(credential.response.attestationObject),
                let object = try? AttestationObject(bytes: objectBytes),
                object.authenticatorData.rpIDHash == Array(SHA256.hash(data: Data(Self.rpID.utf8))),
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
                challenge: challenge, timeout: 300_000, rpId: Self.rpID, allowCredentials: allowed,
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
                clientData.challenge == challenge, clientData.origin == Self.origin,
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
