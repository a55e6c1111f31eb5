import Crypto
import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import Testing
import _CryptoExtras

/// Issue 13: RS256 passkeys (Windows Hello) register and sign in. (An attestation latchd cannot verify
/// is refused since issue 20 §7: `PasskeyHardeningTests`.)
@Suite("Issue 13 passkey algorithms and attestation formats")
struct PasskeyAlgorithmTests {
    /// A hand-built RS256 authenticator (the software authenticator makes P-256 keys only).
    struct RSAPasskey {
        let key: _RSA.Signing.PrivateKey
        let credentialID = (0..<20).map { UInt8($0) }

        init() throws { key = try _RSA.Signing.PrivateKey(keySize: .bits2048) }

        var id: String { Base64URL.encode(credentialID) }

        func authData(flags: UInt8, counter: UInt8, attested: Bool) throws -> [UInt8] {
            var bytes = Array(SHA256.hash(data: Data(Passkeys.rpID.utf8))) + [flags, 0, 0, 0, counter]
            if attested {
                let numbers = try key.publicKey.getKeyPrimitives()
                let cose = COSEPublicKey.rs256(modulus: Array(numbers.modulus), exponent: Array(numbers.publicExponent))
                bytes +=
                    [UInt8](repeating: 0, count: 16) + [0, UInt8(credentialID.count)] + credentialID
                    + CBOREncoder.encode(cose.cbor)
            }
            return bytes
        }

        func registration(_ options: PublicKeyCredentialCreationOptionsJSON) throws -> RegistrationResponseJSON {
            let clientData = CollectedClientData(
                type: "webauthn.create", challenge: options.challenge, origin: Passkeys.origin
            ).jsonBytes
            let object = CBORValue.map([
                CBORMapEntry(.text("fmt"), .text("none")), CBORMapEntry(.text("attStmt"), .map([])),
                CBORMapEntry(.text("authData"), .bytes(try authData(flags: 0x45, counter: 0, attested: true)))
            ])
            return RegistrationResponseJSON(
                id: id, rawId: id,
                response: .init(
                    clientDataJSON: Base64URL.encode(clientData),
                    attestationObject: Base64URL.encode(CBOREncoder.encode(object))))
        }

        func assertion(challenge: String, counter: UInt8) throws -> AuthenticationResponseJSON {
            let clientData = CollectedClientData(type: "webauthn.get", challenge: challenge, origin: Passkeys.origin)
                .jsonBytes
            let data = try authData(flags: 0x05, counter: counter, attested: false)
            let signature = try key.signature(
                for: Data(data + Array(SHA256.hash(data: clientData))), padding: .insecurePKCS1v1_5)
            return AuthenticationResponseJSON(
                id: id, rawId: id,
                response: .init(
                    clientDataJSON: Base64URL.encode(clientData), authenticatorData: Base64URL.encode(data),
                    signature: Base64URL.encode(signature.rawRepresentation)))
        }
    }

    @Test(
        "test_13_rs256PasskeySignsIn: an RS256 (−257) credential registers and signs in; a PSS signature does not",
        arguments: TestDatabase.all)
    func test_13_rs256PasskeySignsIn(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let passkey = try RSAPasskey()
            let creation = try await server.passkeyCreationOptions(bearer: tokens.accessToken)
            let registered = try await server.postPasskey(
                challengeID: creation.challengeId, credential: try passkey.registration(creation.options),
                bearer: tokens.accessToken)

            let options = try await server.passkeySignInOptions()
            let signedIn = try await server.passkeyGrant(
                challengeID: options.challengeId,
                credential: try passkey.assertion(challenge: options.options.challenge, counter: 1))
            let pssOptions = try await server.passkeySignInOptions()
            var pss = try passkey.assertion(challenge: pssOptions.options.challenge, counter: 2)
            let clientData = try #require(Base64URL.decode(pss.response.clientDataJSON))
            let data = try #require(Base64URL.decode(pss.response.authenticatorData))
            pss.response.signature = Base64URL.encode(
                try passkey.key.signature(for: Data(data + Array(SHA256.hash(data: clientData))), padding: .PSS)
                    .rawRepresentation)
            let refused = try await server.passkeyGrant(challengeID: pssOptions.challengeId, credential: pss)

            #expect(
                registered.status == 201 && (try? registered.decode(PasskeyCreated.self))?.attestation == "none",
                "\(registered.text)")
            #expect(signedIn.status == 200, "\(signedIn.text)")
            #expect(refused.status == 401 && refused.reasons == ["bad_signature"], "\(refused.text)")
        }
    }
}
