import Crypto
import Foundation
import LatchCore
import Testing

/// Issue 13 (CBOR and COSE): COSE keys become swift-crypto keys, authenticator data is parsed
/// strictly, and the software authenticator's responses parse back into what it signed.
@Suite("Issue 13 WebAuthn structures")
struct WebAuthnStructureTests {
    static let options = PublicKeyCredentialCreationOptionsJSON(
        rp: .init(id: "example.com", name: "Example"),
        user: .init(id: Base64URL.encode([1, 2, 3]), name: "a@example.com", displayName: "A"),
        challenge: Base64URL.encode([UInt8](repeating: 9, count: 32)), pubKeyCredParams: [.init(alg: .es256)],
        timeout: 300_000,
        excludeCredentials: [],
        authenticatorSelection: .init(
            residentKey: "preferred", requireResidentKey: false, userVerification: "required"),
        attestation: "none")

    func bytes(_ base64URL: String) throws -> [UInt8] { try #require(Base64URL.decode(base64URL)) }

    @Test("Issue 13: an ES256 COSE key round-trips to the same P-256 public key")
    func test_13_es256COSEKeyRoundTrips() throws {
        let key = P256.Signing.PrivateKey().publicKey
        let decoded = try COSEPublicKey(cbor: CBORDecoder.decode(CBOREncoder.encode(COSEPublicKey.es256(key).cbor)))
        guard case .es256(let parsed) = decoded else {
            Issue.record("not ES256")
            return
        }
        #expect(parsed.x963Representation == key.x963Representation)
        #expect(decoded.algorithm == .es256)
    }

    @Test("Issue 13: COSE keys of other types, curves or algorithms, and points off the curve, are refused")
    func test_13_unsupportedCOSEKeysAreRefused() throws {
        let good = COSEPublicKey.es256(P256.Signing.PrivateKey().publicKey).cbor
        func replacing(_ label: Int, with value: CBORValue) -> CBORValue {
            .map(good.mapEntries!.map { $0.key == .int(label) ? CBORMapEntry($0.key, value) : $0 })
        }
        #expect(throws: COSEPublicKey.Failure.unsupportedAlgorithm) {
            try COSEPublicKey(cbor: replacing(3, with: .int(-8)))
        }
        #expect(throws: COSEPublicKey.Failure.unsupportedAlgorithm) {
            try COSEPublicKey(cbor: replacing(-1, with: .int(2)))
        }
        #expect(throws: COSEPublicKey.Failure.unsupportedAlgorithm) {
            try COSEPublicKey(cbor: replacing(1, with: .int(1)))
        }
        #expect(throws: COSEPublicKey.Failure.invalidPoint) {
            try COSEPublicKey(cbor: replacing(-3, with: .bytes([UInt8](repeating: 1, count: 32))))
        }
        #expect(throws: COSEPublicKey.Failure.malformed(label: -2)) {
            try COSEPublicKey(cbor: replacing(-2, with: .bytes([1])))
        }
        let rsa = CBORValue.map([
            CBORMapEntry(.int(1), .int(3)), CBORMapEntry(.int(3), .int(-257)),
            CBORMapEntry(.int(-1), .bytes([0xc1, 0x01])),
            CBORMapEntry(.int(-2), .bytes([1, 0, 1]))
        ])
        guard case .rs256(let modulus, let exponent) = try COSEPublicKey(cbor: rsa) else {
            Issue.record("not RS256")
            return
        }
        #expect(modulus == [0xc1, 0x01] && exponent == [1, 0, 1])
    }

    @Test(
        "Issue 13: the software authenticator's attestation object parses: RP ID hash, UP/UV/AT, credential id and key")
    func test_13_softwareRegistrationParses() throws {
        var authenticator = SoftwareAuthenticator(backupEligible: true, backedUp: true)
        let response = try authenticator.register(
            options: Self.options, origin: "https://example.com", format: .packedSelf)
        let object = try AttestationObject(bytes: try bytes(response.response.attestationObject))
        #expect(object.format == "packed")
        let data = object.authenticatorData
        #expect(data.rpIDHash == Array(SHA256.hash(data: Data("example.com".utf8))))
        #expect(
            data.flags.isSuperset(of: [.userPresent, .userVerified, .attestedCredentialData, .backupEligible, .backedUp]
            ))
        #expect(data.signCount == 0)
        let attested = try #require(data.attestedCredential)
        #expect(attested.credentialID == authenticator.credentialID)
        guard case .es256(let key) = try COSEPublicKey(cbor: attested.publicKey) else {
            Issue.record("not ES256")
            return
        }
        #expect(key.x963Representation == authenticator.privateKey.publicKey.x963Representation)
        let clientData = try #require(CollectedClientData.decode(try bytes(response.response.clientDataJSON)))
        #expect(
            clientData
                == CollectedClientData(
                    type: "webauthn.create", challenge: Self.options.challenge, origin: "https://example.com"))
    }

    @Test("Issue 13: assertions count up and verify over authData ‖ SHA-256(clientDataJSON)")
    func test_13_softwareAssertionVerifies() throws {
        var authenticator = SoftwareAuthenticator()
        _ = try authenticator.register(options: Self.options, origin: "https://example.com")
        let first = try authenticator.assert(challenge: "AAAA", rpID: "example.com", origin: "https://example.com")
        let second = try authenticator.assert(challenge: "AAAA", rpID: "example.com", origin: "https://example.com")
        let authData = try AuthenticatorData(bytes: try bytes(second.response.authenticatorData))
        #expect(authData.signCount == 2)
        #expect(authData.attestedCredential == nil)
        #expect(first.response.userHandle == Self.options.user.id)
        let clientData = try bytes(second.response.clientDataJSON)
        let signature = try P256.Signing.ECDSASignature(derRepresentation: try bytes(second.response.signature))
        let signed = Data(authData.bytes + Array(SHA256.hash(data: clientData)))
        #expect(authenticator.privateKey.publicKey.isValidSignature(signature, for: signed))
        #expect(!authenticator.privateKey.publicKey.isValidSignature(signature, for: signed + [0]))
    }

    @Test("Issue 13: authenticator data that is short, has trailing bytes or BS without BE is refused")
    func test_13_strictAuthenticatorData() {
        let base = [UInt8](repeating: 0, count: 32) + [0x05, 0, 0, 0, 1]
        #expect(throws: AuthenticatorData.Failure.tooShort) { try AuthenticatorData(bytes: Array(base.dropLast())) }
        #expect(throws: AuthenticatorData.Failure.trailingBytes) { try AuthenticatorData(bytes: base + [0]) }
        var backedUp = base
        backedUp[32] = 0x15
        #expect(throws: AuthenticatorData.Failure.backedUpWithoutEligibility) { try AuthenticatorData(bytes: backedUp) }
        var attested = base
        attested[32] = 0x45
        #expect(throws: AuthenticatorData.Failure.tooShort) {
            try AuthenticatorData(bytes: attested + [UInt8](repeating: 0, count: 17))
        }
        #expect(throws: AuthenticatorData.Failure.malformedCredentialKey) {
            try AuthenticatorData(bytes: attested + [UInt8](repeating: 0, count: 16) + [0, 1, 7] + [0x01])
        }
    }

    @Test(
        "Issue 13: the step-up challenge is SHA-256 of the latch-v1 verify message, different per action and parameters"
    )
    func test_13_verificationChallengeBindsTheAction() throws {
        let one = try PasskeyVerificationChallenge.bytes(
            action: "withdrawal", parameters: ["amount": "1"], challengeID: "c", challenge: "x")
        let text = "latch-v1\nverify:withdrawal:\(CanonicalParameters.digest(["amount": "1"]))\nc\nx"
        #expect(one == Array(SHA256.hash(data: Data(text.utf8))))
        #expect(
            one
                != (try PasskeyVerificationChallenge.bytes(
                    action: "withdrawal", parameters: ["amount": "2"], challengeID: "c", challenge: "x")))
        #expect(
            one
                != (try PasskeyVerificationChallenge.bytes(
                    action: "transfer", parameters: ["amount": "1"], challengeID: "c", challenge: "x")))
    }
}
