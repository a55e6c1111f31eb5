import Foundation
import LatchAttestSimulator
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 41 §2 (App Attest): a device key bound with an attestation is asserted on its every use, in
/// `optional` mode too, and one App Attest key vouches for one device key only, ever.
@Suite("Issue 41 §2: App Attest repairs")
struct AppAttestRepairTests {
    @Test(
        "41 §2 AA an attested key's biometric attempt and device-key sign-in without an assertion are refused in optional mode",
        arguments: TestDatabase.all)
    func test_41_2_attestedKeyIsAssertedOnEveryUse(database: TestDatabase) async throws {
        let ca = try SimulatedAppAttestCA()
        let clock = TestClock()
        try await withServer(
            database, clock: clock, adjust: try AppAttestBindingTests.settings(.optional, ca: ca)
        ) { server in
            let attester = SimulatedAppAttester(ca: ca, appID: AppAttestBindingTests.appID, now: { clock.now })
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let key = DeviceKey()
            let (credentialID, keyID) = try await server.bindAttested(
                key, attester: attester, bearer: tokens.accessToken)

            let unasserted = try await server.biometricAttempt(
                key, credentialID: credentialID, attester: nil, keyID: keyID, bearer: tokens.accessToken)
            #expect(unasserted.status == 422, "\(unasserted.text)")
            #expect(unasserted.errorBody?.field == "app_attest_assertion")
            #expect(unasserted.reasons == ["required"])

            let challenge = try await server.loginChallenge(for: credentialID)
            let signature = try key.signLogin(challengeID: challenge.challengeId, challenge: challenge.challenge)
            let grant = try await server.deviceSignatureGrant(challengeID: challenge.challengeId, signature: signature)
            #expect(grant.status == 422, "\(grant.text)")
            #expect(grant.reasons == ["required"])

            // With its assertion the same key still works; a key bound without App Attest needs none.
            let asserted = try await server.biometricAttempt(
                key, credentialID: credentialID, attester: attester, keyID: keyID, bearer: tokens.accessToken)
            #expect(asserted.status == 200, "\(asserted.text)")
            let plainKey = DeviceKey()
            let plainID = try await server.bindDevice(plainKey, name: "Alice's iPad", bearer: tokens.accessToken)
            let plain = try await server.biometricAttempt(
                plainKey, credentialID: plainID, attester: nil, keyID: keyID, bearer: tokens.accessToken)
            #expect(plain.status == 200, "\(plain.text)")
        }
    }

    @Test(
        "41 §2 AA one App Attest key id binds once: not for a second device key, another user's, or after an unbind",
        arguments: TestDatabase.all)
    func test_41_2_oneAppAttestKeyBindsOnce(database: TestDatabase) async throws {
        let ca = try SimulatedAppAttestCA()
        let clock = TestClock()
        try await withServer(
            database, clock: clock, adjust: try AppAttestBindingTests.settings(.optional, ca: ca)
        ) { server in
            let attester = SimulatedAppAttester(ca: ca, appID: AppAttestBindingTests.appID, now: { clock.now })
            let alice = try await server.signUp()
            let keyID = try await attester.generateKey()
            let first = try await server.send(
                .POST, "/v1/device-credentials",
                json: try await server.bindBody(
                    DeviceKey(), keyID: keyID, attester: attester, bearer: alice.accessToken),
                bearer: alice.accessToken)
            #expect(first.status == 201, "\(first.text)")

            let second = try await server.send(
                .POST, "/v1/device-credentials",
                json: try await server.bindBody(
                    DeviceKey(), keyID: keyID, attester: attester, bearer: alice.accessToken),
                bearer: alice.accessToken)
            #expect(second.status == 422, "\(second.text)")
            #expect(second.errorBody?.field == "app_attest")
            #expect(second.reasons == ["key_id_used"])

            let bob = try await server.signUp("bob@example.com")
            let bobs = try await server.send(
                .POST, "/v1/device-credentials",
                json: try await server.bindBody(DeviceKey(), keyID: keyID, attester: attester, bearer: bob.accessToken),
                bearer: bob.accessToken)
            #expect(bobs.status == 422 && bobs.reasons == ["key_id_used"], "\(bobs.text)")

            let credentialID = try first.decode(DeviceCredentialCreated.self).credentialId
            let unbound = try await server.send(
                .DELETE, "/v1/device-credentials/\(credentialID)", bearer: alice.accessToken)
            #expect(unbound.status == 204, "\(unbound.text)")
            let again = try await server.send(
                .POST, "/v1/device-credentials",
                json: try await server.bindBody(
                    DeviceKey(), keyID: keyID, attester: attester, bearer: alice.accessToken),
                bearer: alice.accessToken)
            #expect(again.status == 422 && again.reasons == ["key_id_used"], "\(again.text)")

            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: alice.accessToken)
            #expect(try listed.decode([DeviceCredentialInfo].self).isEmpty)
            // A fresh App Attest key binds as before.
            let fresh = try await server.send(
                .POST, "/v1/device-credentials",
                json: try await server.bindBody(
                    DeviceKey(), keyID: try await attester.generateKey(), attester: attester, bearer: alice.accessToken),
                bearer: alice.accessToken)
            #expect(fresh.status == 201, "\(fresh.text)")
        }
    }
}

extension TestServer {
    /// A bind body for `key` with an attestation of App Attest key `keyID` by `attester` over a fresh challenge.
    func bindBody(_ key: DeviceKey, keyID: String, attester: SimulatedAppAttester, bearer: String) async throws
        -> [String: Any]
    {
        let issued = try await send(.POST, "/v1/app-attest/challenges", body: nil, bearer: bearer)
        try #require(issued.status == 201, "app attest challenge: \(issued.text)")
        let challenge = try issued.decode(AppAttestChallengeInfo.self)
        let object = try await attester.attestKey(
            keyID,
            clientDataHash: AppAttestClientData.hash(
                AppAttestClientData.binding(challenge: challenge.challenge, publicKey: key.publicKey)))
        return [
            "public_key": key.publicKey, "device_name": "Alice's iPhone",
            "app_attest": [
                "key_id": keyID, "attestation_object": Base64URL.encode(object), "challenge_id": challenge.challengeId
            ]
        ]
    }
}
