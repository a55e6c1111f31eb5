import Foundation
import LatchAttestSimulator
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 31 §2 end to end on latchd: challenges, attested binds, assertions on biometric attempts and the
/// device-key sign-in, and `LATCH_APP_ATTEST`'s modes, on SQLite and PostgreSQL, with the simulated
/// attester's test CA as latchd's root (`LATCH_APP_ATTEST_ROOT_CA_FILE`'s setting).
@Suite("App Attest on device binding (issue 31 §2)")
struct AppAttestBindingTests {
    static let appID = "ABCDE12345.com.example.wallet"

    /// App Attest in `mode` for `appID` in development, trusting `ca`.
    static func settings(_ mode: AppAttestMode, ca: SimulatedAppAttestCA) throws -> (inout LatchConfig) -> Void {
        let pem = try ca.rootPEM
        return { config in
            config.appAttest.mode = mode
            config.appAttest.appIDs = [appID]
            config.appAttest.environment = .development
            config.appAttest.rootCertificatesPEM = pem
        }
    }

    @Test(
        "issue 31 §2 a bind with a good attestation lists the key attested, with the app's bundle id and version; the challenge is single use",
        arguments: TestDatabase.all)
    func test_31_2_attestedBind(database: TestDatabase) async throws {
        let ca = try SimulatedAppAttestCA()
        let clock = TestClock()
        try await withServer(database, clock: clock, adjust: try Self.settings(.optional, ca: ca)) { server in
            let attester = SimulatedAppAttester(ca: ca, appID: Self.appID, now: { clock.now })
            let tokens = try await server.signUp()
            let key = DeviceKey()
            let (body, challengeID) = try await server.attestedBindBody(
                key, attester: attester, bearer: tokens.accessToken)

            let bound = try await server.send(.POST, "/v1/device-credentials", json: body, bearer: tokens.accessToken)
            #expect(bound.status == 201, "\(bound.text)")
            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: tokens.accessToken)
            let credentials = try listed.decode([DeviceCredentialInfo].self)
            #expect(credentials.count == 1 && credentials[0].attested == true)
            #expect(credentials[0].app == AppIdentity(bundleId: "com.example.wallet", version: "2.4.1"))

            // The same challenge again, for another key: used.
            let other = DeviceKey()
            var again = try await server.attestedBindBody(other, attester: attester, bearer: tokens.accessToken).body
            var attestation = try #require(again["app_attest"] as? [String: String])
            attestation["challenge_id"] = challengeID
            again["app_attest"] = attestation
            let replayed = try await server.send(
                .POST, "/v1/device-credentials", json: again, bearer: tokens.accessToken)
            #expect(replayed.status == 422 && replayed.reasons == ["challenge_unknown_or_used"], "\(replayed.text)")

            // Another user's challenge is not this user's.
            let bob = try await server.signUp("bob@example.com")
            let bobs = try await server.send(.POST, "/v1/app-attest/challenges", body: nil, bearer: bob.accessToken)
            attestation["challenge_id"] = try bobs.decode(AppAttestChallengeInfo.self).challengeId
            again["app_attest"] = attestation
            let foreign = try await server.send(
                .POST, "/v1/device-credentials", json: again, bearer: tokens.accessToken)
            #expect(foreign.status == 422 && foreign.reasons == ["challenge_unknown_or_used"], "\(foreign.text)")
        }
    }

    @Test(
        "issue 31 §2 a bind whose attestation fails a check is refused with its reason and binds nothing",
        arguments: TestDatabase.all)
    func test_31_2_refusedBind(database: TestDatabase) async throws {
        let ca = try SimulatedAppAttestCA()
        let clock = TestClock()
        try await withServer(database, clock: clock, adjust: try Self.settings(.optional, ca: ca)) { server in
            let tokens = try await server.signUp()
            let cases: [(SimulatedAppAttester, String)] = [
                (
                    SimulatedAppAttester(ca: try SimulatedAppAttestCA(), appID: Self.appID, now: { clock.now }),
                    "untrusted_chain"
                ),
                (
                    SimulatedAppAttester(ca: ca, appID: Self.appID, environment: .production, now: { clock.now }),
                    "wrong_environment"
                ),
                (
                    SimulatedAppAttester(ca: ca, appID: "ZZZZZ99999.com.example.wallet", now: { clock.now }),
                    "app_id_mismatch"
                ),
                (SimulatedAppAttester(ca: ca, appID: Self.appID, fault: .nonce, now: { clock.now }), "nonce_mismatch")
            ]
            for (attester, reason) in cases {
                let body = try await server.attestedBindBody(
                    DeviceKey(), attester: attester, bearer: tokens.accessToken
                ).body
                let refused = try await server.send(
                    .POST, "/v1/device-credentials", json: body, bearer: tokens.accessToken)
                #expect(
                    refused.status == 422 && refused.errorBody?.field == "app_attest" && refused.reasons == [reason],
                    "\(refused.text)")
            }
            // The attestation vouches for the key it was made for: another public_key in the bind is refused.
            let attester = SimulatedAppAttester(ca: ca, appID: Self.appID, now: { clock.now })
            var body = try await server.attestedBindBody(DeviceKey(), attester: attester, bearer: tokens.accessToken)
                .body
            body["public_key"] = DeviceKey().publicKey
            let swapped = try await server.send(.POST, "/v1/device-credentials", json: body, bearer: tokens.accessToken)
            #expect(swapped.status == 422 && swapped.reasons == ["nonce_mismatch"], "\(swapped.text)")
            // A bundle id the attestation does not vouch for.
            var claimed = try await server.attestedBindBody(DeviceKey(), attester: attester, bearer: tokens.accessToken)
                .body
            claimed["app"] = ["bundle_id": "com.example.other", "version": "1.0"]
            let lied = try await server.send(.POST, "/v1/device-credentials", json: claimed, bearer: tokens.accessToken)
            #expect(
                lied.status == 422 && lied.errorBody?.field == "app" && lied.reasons == ["bundle_id_not_attested"],
                "\(lied.text)")

            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: tokens.accessToken)
            #expect(try listed.decode([DeviceCredentialInfo].self).isEmpty, "nothing was bound")
        }
    }

    @Test(
        "issue 31 §2 a biometric attempt and the device-key sign-in carry assertions; one whose counter did not grow is refused",
        arguments: TestDatabase.all)
    func test_31_2_assertions(database: TestDatabase) async throws {
        let ca = try SimulatedAppAttestCA()
        let clock = TestClock()
        try await withServer(database, clock: clock, adjust: try Self.settings(.optional, ca: ca)) { server in
            let attester = SimulatedAppAttester(ca: ca, appID: Self.appID, now: { clock.now })
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let key = DeviceKey()
            let (credentialID, keyID) = try await server.bindAttested(
                key, attester: attester, bearer: tokens.accessToken)

            let passed = try await server.biometricAttempt(
                key, credentialID: credentialID, attester: attester, keyID: keyID, bearer: tokens.accessToken)
            #expect(passed.status == 200, "\(passed.text)")

            // The attester's counter moved back: its next assertion repeats a counter latchd has seen.
            await attester.setCounter(0, of: keyID)
            let replayed = try await server.biometricAttempt(
                key, credentialID: credentialID, attester: attester, keyID: keyID, bearer: tokens.accessToken)
            #expect(replayed.status == 422 && replayed.errorBody?.field == "app_attest_assertion", "\(replayed.text)")
            #expect(replayed.reasons == ["counter_not_increased"])

            // An assertion over another message (another verification's challenge) is refused.
            await attester.setCounter(5, of: keyID)
            let wrong = try await server.biometricAttempt(
                key, credentialID: credentialID, attester: attester, keyID: keyID, bearer: tokens.accessToken,
                assertOver: try SignedMessage.login(challengeID: "x", challenge: "y"))
            #expect(wrong.status == 422 && wrong.reasons == ["bad_signature"], "\(wrong.text)")

            // The device-key sign-in grant with an assertion over the login message.
            let challenge = try await server.loginChallenge(for: credentialID)
            let message = try SignedMessage.login(challengeID: challenge.challengeId, challenge: challenge.challenge)
            let assertion = try await attester.generateAssertion(
                keyID, clientDataHash: AppAttestClientData.hash(AppAttestClientData.assertion(over: message)))
            let signedIn = try await server.send(
                .POST, "/v1/token",
                json: [
                    "grant_type": "device_signature", "challenge_id": challenge.challengeId,
                    "signature": try DeviceSignature.sign(message, with: key.privateKey),
                    "app_attest_assertion": Base64URL.encode(assertion), "device": TestServer.testDevice
                ] as [String: Any])
            #expect(signedIn.status == 200, "\(signedIn.text)")
        }
    }

    @Test(
        "issue 31 §2 required: no bind without an attestation, no biometric attempt or device-key sign-in without an assertion",
        arguments: TestDatabase.all)
    func test_31_2_requiredMode(database: TestDatabase) async throws {
        let ca = try SimulatedAppAttestCA()
        let clock = TestClock()
        try await withServer(database, clock: clock, adjust: try Self.settings(.required, ca: ca)) { server in
            let attester = SimulatedAppAttester(ca: ca, appID: Self.appID, now: { clock.now })
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let plain = try await server.send(
                .POST, "/v1/device-credentials", json: ["public_key": DeviceKey().publicKey], bearer: tokens.accessToken
            )
            #expect(
                plain.status == 422 && plain.errorBody?.field == "app_attest" && plain.reasons == ["required"],
                "\(plain.text)")

            let key = DeviceKey()
            let (credentialID, keyID) = try await server.bindAttested(
                key, attester: attester, bearer: tokens.accessToken)
            let unasserted = try await server.biometricAttempt(
                key, credentialID: credentialID, attester: nil, keyID: keyID, bearer: tokens.accessToken)
            #expect(unasserted.status == 422 && unasserted.reasons == ["required"], "\(unasserted.text)")
            let asserted = try await server.biometricAttempt(
                key, credentialID: credentialID, attester: attester, keyID: keyID, bearer: tokens.accessToken)
            #expect(asserted.status == 200, "\(asserted.text)")

            let challenge = try await server.loginChallenge(for: credentialID)
            let signature = try key.signLogin(challengeID: challenge.challengeId, challenge: challenge.challenge)
            let grant = try await server.deviceSignatureGrant(challengeID: challenge.challengeId, signature: signature)
            #expect(grant.status == 422 && grant.reasons == ["required"], "\(grant.text)")
            #expect(try await server.eventTypes(bearer: tokens.accessToken).contains("sign_in_failed"))
        }
    }

    @Test(
        "issue 31 §2 off (the default): an app_attest member is not checked and the key is listed not attested",
        arguments: [TestDatabase.sqlite])
    func test_31_2_offMode(database: TestDatabase) async throws {
        let ca = try SimulatedAppAttestCA()
        let clock = TestClock()
        try await withServer(database, clock: clock) { server in
            let attester = SimulatedAppAttester(ca: ca, appID: Self.appID, fault: .nonce, now: { clock.now })
            let tokens = try await server.signUp()
            let body = try await server.attestedBindBody(DeviceKey(), attester: attester, bearer: tokens.accessToken)
                .body
            let bound = try await server.send(.POST, "/v1/device-credentials", json: body, bearer: tokens.accessToken)
            #expect(bound.status == 201, "\(bound.text)")
            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: tokens.accessToken)
            let credential = try #require(try listed.decode([DeviceCredentialInfo].self).first)
            #expect(credential.attested == false)
            #expect(credential.app == AppIdentity(bundleId: "com.example.wallet", version: "2.4.1"), "as the app said")
        }
    }

    @Test(
        "issue 31 §2 a policy's attested_device: only an attested key is offered, and only its asserted answer counts",
        arguments: TestDatabase.all)
    func test_31_2_policyAttestedDevice(database: TestDatabase) async throws {
        let ca = try SimulatedAppAttestCA()
        let clock = TestClock()
        let policy = try VerificationPolicy(
            json: Data(#"{"actions": {"withdrawal": {"kinds": ["biometric"], "attested_device": true}}}"#.utf8))
        let settings = try Self.settings(.optional, ca: ca)
        try await withServer(
            database, clock: clock,
            adjust: {
                settings(&$0); $0.verificationPolicy = policy
            }
        ) {
            server in
            let attester = SimulatedAppAttester(ca: ca, appID: Self.appID, now: { clock.now })
            let tokens = try await server.signUp()
            let plainKey = DeviceKey()
            let plainID = try await server.bindDevice(plainKey, bearer: tokens.accessToken)
            let key = DeviceKey()
            let (credentialID, keyID) = try await server.bindAttested(
                key, attester: attester, bearer: tokens.accessToken)

            let started = try await server.startedVerification(bearer: tokens.accessToken)
            #expect(
                started.methods.first { $0.type == .biometric }?.credentialIds == [credentialID],
                "only the attested key")

            let plain = try await server.biometricAttempt(
                plainKey, credentialID: plainID, attester: nil, keyID: keyID, bearer: tokens.accessToken)
            #expect(plain.status == 422 && plain.reasons == ["not_attested"], "\(plain.text)")
            let unasserted = try await server.biometricAttempt(
                key, credentialID: credentialID, attester: nil, keyID: keyID, bearer: tokens.accessToken)
            #expect(unasserted.status == 422 && unasserted.reasons == ["required"], "\(unasserted.text)")
            let asserted = try await server.biometricAttempt(
                key, credentialID: credentialID, attester: attester, keyID: keyID, bearer: tokens.accessToken)
            #expect(asserted.status == 200, "\(asserted.text)")
        }
    }

    @Test("issue 31 §2 LATCH_APP_ATTEST, its app ids, environment and root file are read strictly")
    func test_31_2_configuration() throws {
        let key = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        let plain = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key])
        #expect(plain.appAttest.mode == .off && plain.appAttest.environment == .production)
        let pemFile = FileManager.default.temporaryDirectory.appendingPathComponent("app-attest-\(UUID()).pem")
        try (try SimulatedAppAttestCA().rootPEM).write(to: pemFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: pemFile) }
        let set = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": key, "LATCH_APP_ATTEST": "required",
            "LATCH_APP_ATTEST_APP_IDS": "ABCDE12345.com.example.wallet, ABCDE12345.com.example.wallet.beta",
            "LATCH_APP_ATTEST_ENVIRONMENT": "development", "LATCH_APP_ATTEST_ROOT_CA_FILE": pemFile.path
        ])
        #expect(set.appAttest.mode == .required && set.appAttest.environment == .development)
        #expect(set.appAttest.appIDs == ["ABCDE12345.com.example.wallet", "ABCDE12345.com.example.wallet.beta"])
        #expect(set.appAttest.rootCertificatesPEM != nil)
        let bad: [([String: String], String)] = [
            (["LATCH_APP_ATTEST": "on", "LATCH_APP_ATTEST_APP_IDS": Self.appID], "LATCH_APP_ATTEST"),
            (["LATCH_APP_ATTEST": "optional"], "LATCH_APP_ATTEST_APP_IDS"),
            (["LATCH_APP_ATTEST_APP_IDS": "com.example.wallet"], "LATCH_APP_ATTEST_APP_IDS"),
            (["LATCH_APP_ATTEST_ENVIRONMENT": "sandbox"], "LATCH_APP_ATTEST_ENVIRONMENT"),
            (["LATCH_APP_ATTEST_ROOT_CA_FILE": "/nonexistent.pem"], "LATCH_APP_ATTEST_ROOT_CA_FILE"),
            (["LATCH_APP_ATTEST_ROOT_CA_FILE": "/etc/hostname"], "LATCH_APP_ATTEST_ROOT_CA_FILE"),
            (
                ["LATCH_POLICY_FILE": try Self.policyFile(#"{"actions": {"withdrawal": {"attested_device": true}}}"#)],
                "LATCH_APP_ATTEST"
            ),
            (
                ["LATCH_POLICY_FILE": try Self.policyFile(#"{"actions": {"withdrawal": {"attested_device": 1}}}"#)],
                "attested_device"
            )
        ]
        for (values, name) in bad {
            let error = try #require(throws: ConfigurationError.self) {
                try LatchConfig.fromEnvironment(values.merging(["LATCH_SECRET_KEY": key]) { $1 })
            }
            #expect("\(error)".contains(name), "\(values)")
        }
    }

    /// A policy file holding `json`, in the temporary folder.
    static func policyFile(_ json: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID()).json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}

extension TestServer {
    /// A bind body for `key` with an attestation by `attester` over a fresh challenge, and the app
    /// `com.example.wallet` 2.4.1; the body and the challenge id.
    func attestedBindBody(_ key: DeviceKey, attester: SimulatedAppAttester, bearer: String) async throws
        -> (body: [String: Any], challengeID: String)
    {
        let issued = try await send(.POST, "/v1/app-attest/challenges", body: nil, bearer: bearer)
        try #require(issued.status == 201, "app attest challenge: \(issued.text)")
        let challenge = try issued.decode(AppAttestChallengeInfo.self)
        let keyID = try await attester.generateKey()
        let object = try await attester.attestKey(
            keyID,
            clientDataHash: AppAttestClientData.hash(
                AppAttestClientData.binding(challenge: challenge.challenge, publicKey: key.publicKey)))
        let body: [String: Any] = [
            "public_key": key.publicKey, "device_name": "Alice's iPhone", "biometry": "face_id",
            "app": ["bundle_id": "com.example.wallet", "version": "2.4.1"],
            "app_attest": [
                "key_id": keyID, "attestation_object": Base64URL.encode(object),
                "challenge_id": challenge.challengeId
            ]
        ]
        return (body, challenge.challengeId)
    }

    /// Binds `key` with an attestation by `attester`; the credential id and the App Attest key id.
    func bindAttested(_ key: DeviceKey, attester: SimulatedAppAttester, bearer: String) async throws
        -> (credentialID: String, keyID: String)
    {
        let (body, _) = try await attestedBindBody(key, attester: attester, bearer: bearer)
        let bound = try await send(.POST, "/v1/device-credentials", json: body, bearer: bearer)
        try #require(bound.status == 201, "attested bind: \(bound.text)")
        let keyID = try #require((body["app_attest"] as? [String: String])?["key_id"])
        return (try bound.decode(DeviceCredentialCreated.self).credentialId, keyID)
    }

    /// A biometric attempt at a new withdrawal verification, with an assertion by `attester` (none when
    /// nil) over the signed message (or over `assertOver`).
    func biometricAttempt(
        _ key: DeviceKey, credentialID: String, attester: SimulatedAppAttester?, keyID: String, bearer: String,
        assertOver other: SignedMessage? = nil
    ) async throws -> TestResponse {
        let started = try await startedVerification(bearer: bearer)
        let offer = try #require(started.methods.first { $0.type == .biometric })
        let message = try SignedMessage.verification(
            action: "withdrawal", parameters: VerificationSamples.withdrawal,
            challengeID: try #require(offer.challengeId), challenge: try #require(offer.challenge))
        var assertion: String?
        if let attester {
            let bytes = try await attester.generateAssertion(
                keyID, clientDataHash: AppAttestClientData.hash(AppAttestClientData.assertion(over: other ?? message)))
            assertion = Base64URL.encode(bytes)
        }
        return try await attempt(
            started.verificationId,
            VerificationAttempt(
                method: .biometric, credentialId: credentialID,
                signature: try DeviceSignature.sign(message, with: key.privateKey), appAttestAssertion: assertion),
            bearer: bearer)
    }
}
