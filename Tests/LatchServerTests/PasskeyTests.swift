import Crypto
import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// Issue 13 §1: passkeys in latchd. The software authenticator makes real WebAuthn responses; the
/// tests then change one thing at a time (origin, RP ID, UV, challenge, counter, action) and expect
/// exactly that check to refuse it.
@Suite("Issue 13 passkeys")
struct PasskeyTests {
    @Test(
        "test_13_registrationOptions: ≥16-byte challenge, ES256 + RS256, resident key preferred, UV required, excludeCredentials",
        arguments: TestDatabase.all)
    func test_13_registrationOptions(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            var authenticator = SoftwareAuthenticator()

            let first = try await server.passkeyCreationOptions(bearer: tokens.accessToken)
            try await server.registerPasskey(&authenticator, bearer: tokens.accessToken)
            let second = try await server.passkeyCreationOptions(bearer: tokens.accessToken)

            #expect((Base64URL.decode(first.options.challenge)?.count ?? 0) >= 16)
            #expect(first.options.timeout == 300_000)
            #expect(first.options.rp.id == "localhost")
            #expect(first.options.pubKeyCredParams.map(\.alg) == [-7, -257])
            #expect(first.options.authenticatorSelection.residentKey == "preferred")
            #expect(first.options.authenticatorSelection.userVerification == "required")
            #expect(first.options.excludeCredentials.isEmpty)
            #expect(second.options.excludeCredentials.map(\.id) == [authenticator.credentialIDBase64URL])
            #expect(first.options.user.id == second.options.user.id)
            #expect(first.options.challenge != second.options.challenge)
        }
    }

    @Test(
        "test_13_registerThenSignIn: none and packed self attestation register, a passkey signs in from a new device without an emailed code, mail and events",
        arguments: TestDatabase.all)
    func test_13_registerThenSignIn(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            var plain = SoftwareAuthenticator()
            var attested = SoftwareAuthenticator(backupEligible: true, backedUp: true)

            let none = try await server.registerPasskey(&plain, name: "Laptop", bearer: tokens.accessToken)
            let selfAttested = try await server.registerPasskey(
                &attested, format: .packedSelf, bearer: tokens.accessToken)
            let listed = try await server.send(.GET, "/v1/passkeys", bearer: tokens.accessToken).decode(
                [PasskeyInfo].self)
            let options = try await server.passkeySignInOptions()
            let assertion = try plain.assert(
                challenge: options.options.challenge, rpID: Passkeys.rpID, origin: Passkeys.origin)
            let signedIn = try await server.passkeyGrant(
                challengeID: options.challengeId, credential: assertion,
                device: DeviceInfo(id: "never-seen-device", name: "Kiosk"))

            #expect(none.attestation == "none" && none.name == "Laptop" && !none.backedUp)
            #expect(selfAttested.attestation == "self" && selfAttested.backedUp && selfAttested.name == "Passkey")
            #expect(listed.map(\.id) == [none.id, selfAttested.id])
            #expect(listed.first?.transports == ["internal"])
            #expect(listed.last?.backupEligible == true)
            #expect(options.options.allowCredentials.isEmpty)
            #expect(options.options.userVerification == "required")
            #expect(signedIn.status == 200, "\(signedIn.text)")
            // A strong factor: the new device needed no emailed code, and is known from now on.
            let passwordFromThatDevice = try await server.signIn(device: ["id": "never-seen-device"])
            #expect(passwordFromThatDevice.status == 200, "\(passwordFromThatDevice.text)")
            let used = try await server.send(.GET, "/v1/passkeys", bearer: tokens.accessToken).decode(
                [PasskeyInfo].self)
            #expect(used.first?.lastUsedAt != nil && used.last?.lastUsedAt == nil)
            let events = try await server.eventTypes(bearer: tokens.accessToken)
            #expect(events.filter { $0 == "passkey_added" }.count == 2)
            #expect((await server.mails()).filter { $0.subject == "A passkey was added to your account" }.count == 2)
        }
    }

    @Test(
        "test_13_registrationRefusals: wrong origin, wrong RP ID, UV unset, wrong type, cross-origin, bad self-attestation, replayed challenge, a credential id of another user",
        arguments: TestDatabase.all)
    func test_13_registrationRefusals(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let bearer = tokens.accessToken
            func attempt(_ make: (PublicKeyCredentialCreationOptionsJSON) throws -> RegistrationResponseJSON)
                async throws -> TestResponse
            {
                let options = try await server.passkeyCreationOptions(bearer: bearer)
                return try await server.postPasskey(
                    challengeID: options.challengeId, credential: try make(options.options), bearer: bearer)
            }
            var authenticator = SoftwareAuthenticator()

            let wrongOrigin = try await attempt {
                try authenticator.register(options: $0, origin: "https://evil.example")
            }
            let wrongRPID = try await attempt {
                try authenticator.register(options: $0, origin: Passkeys.origin, rpID: "evil.example")
            }
            let noUV = try await attempt {
                try authenticator.register(options: $0, origin: Passkeys.origin, userVerified: false)
            }
            let wrongType = try await attempt {
                try authenticator.register(options: $0, origin: Passkeys.origin, type: "webauthn.get")
            }
            let crossOrigin = try await attempt {
                try authenticator.register(options: $0, origin: Passkeys.origin, crossOrigin: true)
            }
            let otherChallenge = try await attempt { options in
                var changed = options
                changed.challenge = Base64URL.encode([UInt8](repeating: 1, count: 32))
                return try authenticator.register(options: changed, origin: Passkeys.origin)
            }
            let badSelfAttestation = try await attempt { options in
                var response = try authenticator.register(
                    options: options, origin: Passkeys.origin, format: .packedSelf)
                // Client data that passes every check but is not the one the attestation signed.
                let raw = try #require(Base64URL.decode(response.response.clientDataJSON))
                var clientData = try #require(CollectedClientData.decode(raw))
                clientData.crossOrigin = nil
                response.response.clientDataJSON = Base64URL.encode(clientData.jsonBytes)
                return response
            }
            // A good registration, then the same challenge again.
            let options = try await server.passkeyCreationOptions(bearer: bearer)
            let good = try authenticator.register(options: options.options, origin: Passkeys.origin)
            let accepted = try await server.postPasskey(
                challengeID: options.challengeId, credential: good, bearer: bearer)
            let replayed = try await server.postPasskey(
                challengeID: options.challengeId, credential: good, bearer: bearer)
            // Another user registering the same credential id.
            let bob = try await server.signUp("bob@example.com")
            let bobOptions = try await server.passkeyCreationOptions(bearer: bob.accessToken)
            var copy = SoftwareAuthenticator(credentialID: authenticator.credentialID)
            let duplicate = try await server.postPasskey(
                challengeID: bobOptions.challengeId,
                credential: try copy.register(options: bobOptions.options, origin: Passkeys.origin),
                bearer: bob.accessToken)
            // Alice's challenge is not Bob's.
            let aliceOptions = try await server.passkeyCreationOptions(bearer: bearer)
            var other = SoftwareAuthenticator()
            let foreignChallenge = try await server.postPasskey(
                challengeID: aliceOptions.challengeId,
                credential: try other.register(options: aliceOptions.options, origin: Passkeys.origin),
                bearer: bob.accessToken)

            #expect(wrongOrigin.status == 422 && wrongOrigin.reasons == ["origin_not_allowed"], "\(wrongOrigin.text)")
            #expect(wrongRPID.status == 422 && wrongRPID.reasons == ["rp_id_mismatch"], "\(wrongRPID.text)")
            #expect(noUV.status == 422 && noUV.reasons == ["user_not_verified"], "\(noUV.text)")
            #expect(wrongType.status == 422 && wrongType.reasons == ["wrong_type"], "\(wrongType.text)")
            #expect(crossOrigin.status == 422 && crossOrigin.reasons == ["cross_origin"], "\(crossOrigin.text)")
            #expect(
                otherChallenge.status == 422 && otherChallenge.reasons == ["challenge_mismatch"],
                "\(otherChallenge.text)")
            #expect(
                badSelfAttestation.status == 422 && badSelfAttestation.reasons == ["bad_attestation"],
                "\(badSelfAttestation.text)")
            #expect(accepted.status == 201, "\(accepted.text)")
            #expect(replayed.status == 422 && replayed.errorBody?.field == "challenge_id", "\(replayed.text)")
            #expect(duplicate.status == 409 && duplicate.reasons == ["credential_exists"], "\(duplicate.text)")
            #expect(foreignChallenge.status == 422 && foreignChallenge.errorBody?.field == "challenge_id")
            let listed = try await server.send(.GET, "/v1/passkeys", bearer: bearer).decode([PasskeyInfo].self)
            #expect(listed.count == 1)
        }
    }

    @Test(
        "test_13_registrationNeedsRecentSignInOrAddPasskeyProof: after 10 minutes the options need a verification token for add_passkey",
        arguments: TestDatabase.all)
    func test_13_registrationNeedsRecentSignInOrAddPasskeyProof(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            server.clock.advance(by: 601)

            let stale = try await server.passkeyRegistrationOptions(bearer: tokens.accessToken)
            let wrongAction = try await server.verificationToken("withdrawal", bearer: tokens.accessToken)
            let withWrongProof = try await server.passkeyRegistrationOptions(
                bearer: tokens.accessToken, verificationToken: wrongAction)
            let proof = try await server.verificationToken("add_passkey", parameters: [:], bearer: tokens.accessToken)
            let withProof = try await server.passkeyRegistrationOptions(
                bearer: tokens.accessToken, verificationToken: proof)

            #expect(stale.status == 403 && stale.errorCode == "VERIFICATION_REQUIRED")
            #expect(withWrongProof.status == 403 && withWrongProof.errorCode == "VERIFICATION_INVALID")
            #expect(withProof.status == 200, "\(withProof.text)")
        }
    }

    @Test(
        "test_13_signInRefusals: wrong origin, wrong RP ID, UV unset, another key, another user handle, replayed challenge, a backwards counter (refused and recorded)",
        arguments: TestDatabase.all)
    func test_13_signInRefusals(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            var authenticator = SoftwareAuthenticator()
            try await server.registerPasskey(&authenticator, bearer: tokens.accessToken)
            func signIn(_ make: (String) throws -> AuthenticationResponseJSON) async throws -> TestResponse {
                let options = try await server.passkeySignInOptions()
                return try await server.passkeyGrant(
                    challengeID: options.challengeId, credential: try make(options.options.challenge))
            }

            let wrongOrigin = try await signIn {
                try authenticator.assert(challenge: $0, rpID: Passkeys.rpID, origin: "https://evil.example")
            }
            let wrongRPID = try await signIn {
                try authenticator.assert(challenge: $0, rpID: "evil.example", origin: Passkeys.origin)
            }
            let noUV = try await signIn {
                try authenticator.assert(
                    challenge: $0, rpID: Passkeys.rpID, origin: Passkeys.origin, userVerified: false)
            }
            let forged = try await signIn { challenge in
                var other = SoftwareAuthenticator(credentialID: authenticator.credentialID, signCount: 100)
                return try other.assert(challenge: challenge, rpID: Passkeys.rpID, origin: Passkeys.origin)
            }
            let wrongHandle = try await signIn { challenge in
                var assertion = try authenticator.assert(
                    challenge: challenge, rpID: Passkeys.rpID, origin: Passkeys.origin)
                assertion.response.userHandle = Base64URL.encode([UInt8](repeating: 7, count: 32))
                return assertion
            }
            // A good sign-in (credential id sent with padding, as some clients do), then its challenge again.
            let options = try await server.passkeySignInOptions()
            var good = try authenticator.assert(
                challenge: options.options.challenge, rpID: Passkeys.rpID, origin: Passkeys.origin)
            good.rawId += "="
            good.id = good.rawId
            let accepted = try await server.passkeyGrant(challengeID: options.challengeId, credential: good)
            let replayed = try await server.passkeyGrant(challengeID: options.challengeId, credential: good)
            // The stored counter is 5 by now; a clone starting again at 1 is refused.
            authenticator.signCount = 0
            let backwards = try await signIn {
                try authenticator.assert(challenge: $0, rpID: Passkeys.rpID, origin: Passkeys.origin)
            }

            #expect(wrongOrigin.status == 401 && wrongOrigin.reasons == ["origin_not_allowed"], "\(wrongOrigin.text)")
            #expect(wrongRPID.status == 401 && wrongRPID.reasons == ["rp_id_mismatch"], "\(wrongRPID.text)")
            #expect(noUV.status == 401 && noUV.reasons == ["user_not_verified"], "\(noUV.text)")
            #expect(forged.status == 401 && forged.reasons == ["bad_signature"], "\(forged.text)")
            #expect(wrongHandle.status == 401 && wrongHandle.reasons == ["user_handle_mismatch"], "\(wrongHandle.text)")
            #expect(accepted.status == 200, "\(accepted.text)")
            #expect(replayed.status == 401 && replayed.reasons == ["challenge_unknown_or_used"], "\(replayed.text)")
            #expect(backwards.status == 401 && backwards.reasons == ["counter_regressed"], "\(backwards.text)")
            let events = try await server.eventTypes(bearer: tokens.accessToken)
            #expect(events.contains("passkey_counter_regressed"))
            #expect(events.filter { $0 == "sign_in_failed" }.count == 5)
        }
    }

    @Test(
        "test_13_challengeIsSingleUseUnderConcurrency: eight simultaneous sign-ins with one challenge and one assertion give exactly one session",
        arguments: TestDatabase.all)
    func test_13_challengeIsSingleUseUnderConcurrency(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            var authenticator = SoftwareAuthenticator(counterStep: 0)
            try await server.registerPasskey(&authenticator, bearer: tokens.accessToken)
            let options = try await server.passkeySignInOptions()
            let assertion = try authenticator.assert(
                challenge: options.options.challenge, rpID: Passkeys.rpID, origin: Passkeys.origin)

            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await server.passkeyGrant(challengeID: options.challengeId, credential: assertion).status
                    }
                }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }

            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 401 }.count == 7)
        }
    }

    @Test(
        "test_13_zeroCounterPasskeysSignInAgain: an authenticator whose counter stays 0 (synced passkeys) signs in every time",
        arguments: TestDatabase.all)
    func test_13_zeroCounterPasskeysSignInAgain(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            var authenticator = SoftwareAuthenticator(counterStep: 0)
            try await server.registerPasskey(&authenticator, bearer: tokens.accessToken)

            var statuses: [UInt] = []
            for _ in 0..<2 {
                let options = try await server.passkeySignInOptions(email: "alice@example.com")
                let assertion = try authenticator.assert(
                    challenge: options.options.challenge, rpID: Passkeys.rpID, origin: Passkeys.origin)
                statuses.append(
                    try await server.passkeyGrant(challengeID: options.challengeId, credential: assertion).status)
            }

            #expect(statuses == [200, 200])
        }
    }

    @Test(
        "test_13_signInOptionsDoNotEnumerate: an unknown email, one without passkeys and one with passkeys get the same options (no allowCredentials, issue 20 §7)",
        arguments: TestDatabase.all)
    func test_13_signInOptionsDoNotEnumerate(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            try await server.signUp("bob@example.com")
            var authenticator = SoftwareAuthenticator()
            try await server.registerPasskey(&authenticator, bearer: alice.accessToken)

            let known = try await server.passkeySignInOptions(email: "alice@example.com")
            let withoutPasskeys = try await server.passkeySignInOptions(email: "bob@example.com")
            let unknown = try await server.passkeySignInOptions(email: "nobody@example.com")
            let unknownAgain = try await server.passkeySignInOptions(email: "nobody@example.com")

            for options in [known, withoutPasskeys, unknown, unknownAgain] {
                #expect(options.options.allowCredentials.isEmpty)
                #expect(options.options.rpId == known.options.rpId && options.options.timeout == known.options.timeout)
            }
            #expect(unknown.challengeId != unknownAgain.challengeId)
        }
    }

    @Test(
        "test_13_verificationWithPasskey: passkey is offered after biometric, its challenge is bound to the action, and an assertion for another action never verifies",
        arguments: TestDatabase.all)
    func test_13_verificationWithPasskey(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let bearer = tokens.accessToken
            var authenticator = SoftwareAuthenticator()
            try await server.registerPasskey(&authenticator, bearer: bearer)
            _ = try await server.bindDevice(DeviceKey(), bearer: bearer)

            let withdrawal = try await server.startedVerification(bearer: bearer)
            let transfer = try await server.startedVerification("transfer", parameters: ["to": "bob"], bearer: bearer)
            let offer = try #require(withdrawal.methods.first { $0.type == .passkey })
            let transferOffer = try #require(transfer.methods.first { $0.type == .passkey })
            let expected = try PasskeyVerificationChallenge.bytes(
                action: "withdrawal", parameters: VerificationSamples.withdrawal,
                challengeID: try #require(offer.challengeId),
                challenge: try #require(offer.challenge))
            // An assertion made for the transfer, sent to the withdrawal.
            let forTransfer = try authenticator.assert(
                challenge: try #require(transferOffer.options?.challenge), rpID: Passkeys.rpID, origin: Passkeys.origin)
            let crossed = try await server.attempt(
                withdrawal.verificationId, VerificationAttempt(method: .passkey, credential: forTransfer),
                bearer: bearer)
            // The withdrawal's own challenge was used up by that attempt: a fresh verification passes.
            let again = try await server.startedVerification(bearer: bearer)
            let againOffer = try #require(again.methods.first { $0.type == .passkey })
            let assertion = try authenticator.assert(
                challenge: try #require(againOffer.options?.challenge), rpID: Passkeys.rpID, origin: Passkeys.origin)
            let passed = try await server.attempt(
                again.verificationId, VerificationAttempt(method: .passkey, credential: assertion), bearer: bearer)
            let token = try passed.decode(VerificationPassed.self).verificationToken
            let redeemed = try await server.redeem(token, bearer: bearer)

            #expect(withdrawal.methods.map(\.type) == [.biometric, .passkey])
            #expect(offer.options?.challenge == Base64URL.encode(expected))
            #expect(offer.options?.allowCredentials.map(\.id) == [authenticator.credentialIDBase64URL])
            #expect(crossed.status == 400 && crossed.errorCode == "AUTH_003", "\(crossed.text)")
            #expect(passed.status == 200, "\(passed.text)")
            #expect(
                redeemed.status == 200 && (try? redeemed.decode(RedeemedVerification.self))?.method == .passkey,
                "\(redeemed.text)")
            #expect(try await server.eventTypes(bearer: bearer).contains("verification_failed"))
        }
    }

    @Test(
        "test_13_manageAndRemove: rename, remove (mail, event), removal after 10 minutes needs remove_passkey proof, the last way in cannot be removed (409)",
        arguments: TestDatabase.all)
    func test_13_manageAndRemove(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            var authenticator = SoftwareAuthenticator()
            let created = try await server.registerPasskey(&authenticator, bearer: tokens.accessToken)
            let renamed = try await server.send(
                .PATCH, "/v1/passkeys/\(created.id)", json: ["name": "YubiKey"], bearer: tokens.accessToken)
            let removed = try await server.send(.DELETE, "/v1/passkeys/\(created.id)", bearer: tokens.accessToken)
            let gone = try await server.send(.DELETE, "/v1/passkeys/\(created.id)", bearer: tokens.accessToken)

            #expect(
                renamed.status == 200 && (try? renamed.decode(PasskeyInfo.self))?.name == "YubiKey", "\(renamed.text)")
            #expect(removed.status == 204, "\(removed.text)")
            #expect(gone.status == 404)
            #expect(try await server.eventTypes(bearer: tokens.accessToken).contains("passkey_removed"))
            #expect(
                (await server.mails()).contains {
                    $0.subject == "A passkey was removed from your account" && $0.body.contains("YubiKey")
                })

            // A phone-only account with a passkey: the phone may go, then the passkey is the last way in.
            _ = try await PhoneSignInTests.requestCode(server)
            let phone = try await PhoneSignInTests.smsSignIn(
                server, code: try await PhoneSignInTests.textedCode(server)
            ).decode(TokenResponse.self)
            var phoneKey = SoftwareAuthenticator()
            let phonePasskey = try await server.registerPasskey(&phoneKey, bearer: phone.accessToken)
            let unlinkPhone = try await server.send(.DELETE, "/v1/me/identities/phone", bearer: phone.accessToken)
            let removeLast = try await server.send(
                .DELETE, "/v1/passkeys/\(phonePasskey.id)", bearer: phone.accessToken)
            // After 10 minutes a removal needs a verification token for remove_passkey.
            server.clock.advance(by: 601)
            var second = SoftwareAuthenticator()
            let fresh = try await server.signIn()
            let freshTokens = try fresh.decode(TokenResponse.self)
            let secondPasskey = try await server.registerPasskey(&second, bearer: freshTokens.accessToken)
            server.clock.advance(by: 601)
            let stale = try await server.send(
                .DELETE, "/v1/passkeys/\(secondPasskey.id)", bearer: freshTokens.accessToken)

            #expect(unlinkPhone.status == 200, "\(unlinkPhone.text)")
            #expect(removeLast.status == 409 && removeLast.reasons == ["last_sign_in_method"], "\(removeLast.text)")
            #expect(stale.status == 403 && stale.errorCode == "VERIFICATION_REQUIRED", "\(stale.text)")
        }
    }

    @Test(
        "test_13_relyingPartyConfiguration: defaults from the issuer, explicit values, and bad values naming the variable"
    )
    func test_13_relyingPartyConfiguration() throws {
        let key = Data(repeating: 3, count: 32).base64EncodedString()
        let development = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key])
        let issued = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": key, "LATCH_ISSUER": "https://auth.example.com"
        ])
        let explicit = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": key, "LATCH_WEBAUTHN_RP_ID": "example.com", "LATCH_WEBAUTHN_RP_NAME": "Example",
            "LATCH_WEBAUTHN_ORIGINS": "https://example.com, https://app.example.com:8443/"
        ])

        #expect(
            development.relyingParty == RelyingParty(id: "localhost", name: "Latch", origins: ["http://localhost:8080"])
        )
        #expect(
            issued.relyingParty.id == "auth.example.com" && issued.relyingParty.origins == ["https://auth.example.com"])
        #expect(
            explicit.relyingParty
                == RelyingParty(
                    id: "example.com", name: "Example", origins: ["https://example.com", "https://app.example.com:8443"]
                ))
        for (name, value) in [
            ("LATCH_WEBAUTHN_RP_ID", "https://example.com"), ("LATCH_WEBAUTHN_RP_ID", "127.0.0.1"),
            ("LATCH_WEBAUTHN_ORIGINS", "https://evil.example"), ("LATCH_WEBAUTHN_ORIGINS", "http://example.com")
        ] {
            var environment = ["LATCH_SECRET_KEY": key, "LATCH_WEBAUTHN_RP_ID": "example.com"]
            environment[name] = value
            let error = try #require(throws: ConfigurationError.self) { try LatchConfig.fromEnvironment(environment) }
            #expect(error.variable == name, "\(name)=\(value)")
        }
    }
}
