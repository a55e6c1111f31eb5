import Crypto
import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing
import _CryptoExtras

@testable import LatchServer

/// Issue 20 §7: WebAuthn, the last steps — options that named an account accept only its passkeys
/// and look the same for everyone, the backup-eligible flag is fixed, attestation is verified or
/// refused, RSA keys are strong, names are cleaned, and renaming is guarded like adding.
@Suite("Passkeys, the last steps (issue 20 §7)")
struct PasskeyHardeningTests {
    /// A sign-in with `authenticator` against fresh options (naming `email` when given).
    static func signIn(_ server: TestServer, _ authenticator: inout SoftwareAuthenticator, email: String?)
        async throws -> TestResponse
    {
        let options = try await server.passkeySignInOptions(email: email)
        let assertion = try authenticator.assert(
            challenge: options.options.challenge, rpID: Passkeys.rpID, origin: Passkeys.origin)
        return try await server.passkeyGrant(challengeID: options.challengeId, credential: assertion)
    }

    @Test(
        "review_7 options that named an account accept only its passkeys (§7.2 step 5): another account's valid passkey is refused like an unknown one",
        arguments: TestDatabase.all)
    func test_20_7_onlyTheNamedAccountsPasskeysAnswer(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let bob = try await server.signUp("bob@example.com")
            var alicesKey = SoftwareAuthenticator()
            var bobsKey = SoftwareAuthenticator()
            try await server.registerPasskey(&alicesKey, bearer: alice.accessToken)
            try await server.registerPasskey(&bobsKey, bearer: bob.accessToken)

            let bobForAlice = try await Self.signIn(server, &bobsKey, email: "alice@example.com")
            let bobForNobody = try await Self.signIn(server, &bobsKey, email: "nobody@example.com")
            let aliceForAlice = try await Self.signIn(server, &alicesKey, email: "ALICE@example.com")
            let bobWithoutEmail = try await Self.signIn(server, &bobsKey, email: nil)

            for refused in [bobForAlice, bobForNobody] {
                #expect(refused.status == 401 && refused.reasons == ["unknown_credential"], "\(refused.text)")
            }
            #expect(try aliceForAlice.decode(TokenResponse.self).user.id == alice.user.id)
            #expect(try bobWithoutEmail.decode(TokenResponse.self).user.id == bob.user.id, "no email: any passkey")
        }
    }

    @Test(
        "review_7 the sign-in options for an email look the same for 0, 1 or several passkeys, and for no account",
        arguments: TestDatabase.all)
    func test_20_7_optionsLookTheSame(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let bob = try await server.signUp("bob@example.com")
            try await server.signUp("carol@example.com")
            var keys = [SoftwareAuthenticator(), SoftwareAuthenticator(), SoftwareAuthenticator()]
            try await server.registerPasskey(&keys[0], bearer: alice.accessToken)
            try await server.registerPasskey(&keys[1], bearer: alice.accessToken)
            try await server.registerPasskey(&keys[2], bearer: bob.accessToken)

            var shapes: [String] = []
            for email in ["alice@example.com", "bob@example.com", "carol@example.com", "nobody@example.com"] {
                let answer = try await server.send(.POST, "/v1/passkeys/authentication/options", json: ["email": email])
                try #require(answer.status == 200, "\(answer.text)")
                var options = try #require(answer.json["options"] as? [String: Any])
                options["challenge"] = "…"
                let data = try JSONSerialization.data(withJSONObject: options, options: [.sortedKeys])
                shapes.append(String(decoding: data, as: UTF8.self))
                #expect((options["allowCredentials"] as? [Any])?.isEmpty == true)
            }

            #expect(Set(shapes).count == 1, "two passkeys, one, none and no account answer alike: \(shapes)")
        }
    }

    @Test(
        "review_7 an assertion whose backup-eligible flag differs from the registered one is refused, at sign-in and at step-up",
        arguments: TestDatabase.all)
    func test_20_7_backupEligibilityIsFixed(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            var authenticator = SoftwareAuthenticator(backupEligible: false)
            try await server.registerPasskey(&authenticator, bearer: alice.accessToken)

            authenticator.backupEligible = true
            let flipped = try await Self.signIn(server, &authenticator, email: "alice@example.com")
            authenticator.backupEligible = false
            let asRegistered = try await Self.signIn(server, &authenticator, email: "alice@example.com")

            #expect(flipped.status == 401 && flipped.reasons == ["backup_eligibility_mismatch"], "\(flipped.text)")
            #expect(asRegistered.status == 200, "\(asRegistered.text)")
            let stored = try await Passkey.query(on: server.app.db).first()
            #expect(stored?.backupEligible == false)
        }
    }

    @Test(
        "review_7 a non-none attestation latchd cannot verify (fido-u2f, packed with a certificate, an unknown format) is refused, nothing stored",
        arguments: TestDatabase.all)
    func test_20_7_unverifiableAttestationIsRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let statements: [(String, CBORValue)] = [
                (
                    "fido-u2f",
                    .map([CBORMapEntry(.text("sig"), .bytes([1])), CBORMapEntry(.text("x5c"), .array([.bytes([2])]))])
                ),
                (
                    "packed",
                    .map([
                        CBORMapEntry(.text("alg"), .int(-7)), CBORMapEntry(.text("sig"), .bytes([1])),
                        CBORMapEntry(.text("x5c"), .array([.bytes([2])]))
                    ])
                ),
                ("apple", .map([CBORMapEntry(.text("x5c"), .array([.bytes([2])]))])),
                ("none", .map([CBORMapEntry(.text("sig"), .bytes([1]))]))
            ]
            for (format, statement) in statements {
                var authenticator = SoftwareAuthenticator()
                let options = try await server.passkeyCreationOptions(bearer: tokens.accessToken)
                var credential = try authenticator.register(options: options.options, origin: Passkeys.origin)
                let original = try CBORDecoder.decode(
                    try #require(Base64URL.decode(credential.response.attestationObject)))
                let object = CBORValue.map([
                    CBORMapEntry(.text("fmt"), .text(format)), CBORMapEntry(.text("attStmt"), statement),
                    CBORMapEntry(.text("authData"), try #require(original["authData"]))
                ])
                credential.response.attestationObject = Base64URL.encode(CBOREncoder.encode(object))
                let created = try await server.postPasskey(
                    challengeID: options.challengeId, credential: credential, bearer: tokens.accessToken)

                let expected = format == "none" ? ["bad_attestation"] : ["unverifiable_attestation"]
                #expect(created.status == 422 && created.reasons == expected, "\(format): \(created.text)")
            }
            #expect(try await Passkey.query(on: server.app.db).count() == 0)
        }
    }

    @Test(
        "review_7 RSA keys are checked at registration: under 2048 bits or e ≠ 65537 is refused (weak_key)",
        arguments: TestDatabase.all)
    func test_20_7_weakRSAKeysAreRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let strong = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey.getKeyPrimitives()
            let short = [UInt8(0xC1)] + [UInt8](repeating: 0x5A, count: 127) // 1024 bits
            var answers: [(String, TestResponse)] = []
            let twoThousandFortySeven: [UInt8] = [0, 0x7F] + Array(strong.modulus.dropFirst())
            let cases: [(String, [UInt8], [UInt8])] = [
                ("1024-bit", short, [1, 0, 1]), ("e = 3", Array(strong.modulus), [3]),
                ("2047 bits (a leading zero byte), e = 65537 with one", twoThousandFortySeven, [0, 1, 0, 1])
            ]
            for (name, modulus, exponent) in cases {
                let options = try await server.passkeyCreationOptions(bearer: tokens.accessToken)
                let credential = try Self.rsaRegistration(options.options, modulus: modulus, exponent: exponent)
                answers.append(
                    (
                        name,
                        try await server.postPasskey(
                            challengeID: options.challengeId, credential: credential, bearer: tokens.accessToken)
                    ))
            }
            let options = try await server.passkeyCreationOptions(bearer: tokens.accessToken)
            let good = try await server.postPasskey(
                challengeID: options.challengeId,
                credential: try Self.rsaRegistration(
                    options.options, modulus: Array(strong.modulus), exponent: Array(strong.publicExponent)),
                bearer: tokens.accessToken)

            for (name, answer) in answers {
                #expect(answer.status == 422 && answer.reasons == ["weak_key"], "\(name): \(answer.text)")
            }
            #expect(good.status == 201, "2048 bits, e = 65537: \(good.text)")
            #expect(PasskeyVerifier.bitLength([0, 0, 0x01]) == 1 && PasskeyVerifier.bitLength([0x80, 0]) == 16)
        }
    }

    /// A `none` registration of an RS256 key with these numbers (nothing is signed at registration).
    static func rsaRegistration(_ options: PublicKeyCredentialCreationOptionsJSON, modulus: [UInt8], exponent: [UInt8])
        throws -> RegistrationResponseJSON
    {
        let credentialID = (0..<20).map { _ in UInt8.random(in: 0...255) }
        let cose = COSEPublicKey.rs256(modulus: modulus, exponent: exponent)
        let flagsAndCounter: [UInt8] = [0x45, 0, 0, 0, 0] // UP, UV, AT; counter 0
        var authData = Array(SHA256.hash(data: Data(Passkeys.rpID.utf8))) + flagsAndCounter
        authData += [UInt8](repeating: 0, count: 16) // AAGUID
        authData += [0, UInt8(credentialID.count)] + credentialID
        authData += CBOREncoder.encode(cose.cbor)
        let clientData = CollectedClientData(
            type: "webauthn.create", challenge: options.challenge, origin: Passkeys.origin
        )
        .jsonBytes
        let object = CBORValue.map([
            CBORMapEntry(.text("fmt"), .text("none")), CBORMapEntry(.text("attStmt"), .map([])),
            CBORMapEntry(.text("authData"), .bytes(authData))
        ])
        let id = Base64URL.encode(credentialID)
        return RegistrationResponseJSON(
            id: id, rawId: id,
            response: .init(
                clientDataJSON: Base64URL.encode(clientData),
                attestationObject: Base64URL.encode(CBOREncoder.encode(object))))
    }

    @Test(
        "review_7 passkey names are cleaned like mail display text (bidi, zero-width, look-alikes) when added and renamed",
        arguments: TestDatabase.all)
    func test_20_7_namesAreCleaned(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            var authenticator = SoftwareAuthenticator()
            let created = try await server.registerPasskey(
                &authenticator, name: "𝐀lice\u{202E}yek\u{200B} ", bearer: tokens.accessToken)
            let renamed = try await server.send(
                .PATCH, "/v1/passkeys/\(created.id)", json: ["name": "Ｗork\u{2066}\u{0007}key"],
                bearer: tokens.accessToken)
            let invisible = try await server.send(
                .PATCH, "/v1/passkeys/\(created.id)", json: ["name": "\u{200B}\u{202E}"], bearer: tokens.accessToken)

            #expect(created.name == "Aliceyek")
            #expect(
                renamed.status == 200 && (try? renamed.decode(PasskeyInfo.self))?.name == "Workkey", "\(renamed.text)")
            #expect(
                invisible.status == 400 && invisible.errorBody?.field == "name", "nothing visible: \(invisible.text)")
            let mail = try #require(await server.mails().last { $0.subject.contains("passkey") })
            #expect(mail.body.contains("Aliceyek") && !mail.body.unicodeScalars.contains { $0.value == 0x202E })
        }
    }

    @Test(
        "review_7 renaming needs the recency adding needs: after 10 minutes a verification token for rename_passkey {passkey_id}",
        arguments: TestDatabase.all)
    func test_20_7_renameNeedsRecency(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            var first = SoftwareAuthenticator()
            var second = SoftwareAuthenticator()
            let one = try await server.registerPasskey(&first, bearer: tokens.accessToken)
            let other = try await server.registerPasskey(&second, bearer: tokens.accessToken)
            server.clock.advance(by: 11 * 60)

            let stale = try await server.send(
                .PATCH, "/v1/passkeys/\(one.id)", json: ["name": "Phished"], bearer: tokens.accessToken)
            let forOther = try await server.verificationToken(
                "rename_passkey", parameters: ["passkey_id": other.id], bearer: tokens.accessToken)
            let wrongTarget = try await server.send(
                .PATCH, "/v1/passkeys/\(one.id)", json: ["name": "Phished", "verification_token": forOther],
                bearer: tokens.accessToken)
            let token = try await server.verificationToken(
                "rename_passkey", parameters: ["passkey_id": one.id], bearer: tokens.accessToken)
            let verified = try await server.send(
                .PATCH, "/v1/passkeys/\(one.id)", json: ["name": "Laptop", "verification_token": token],
                bearer: tokens.accessToken)

            #expect(stale.status == 403 && stale.errorCode == "VERIFICATION_REQUIRED", "\(stale.text)")
            #expect(wrongTarget.status == 403 && wrongTarget.errorCode == "VERIFICATION_INVALID", "\(wrongTarget.text)")
            #expect(
                verified.status == 200 && (try? verified.decode(PasskeyInfo.self))?.name == "Laptop", "\(verified.text)"
            )
        }
    }
}
