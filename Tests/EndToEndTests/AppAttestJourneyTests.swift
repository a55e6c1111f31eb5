import Foundation
import LatchAttestSimulator
import LatchClient
import LatchCore
import LatchServer
import Testing

/// Issue 31 §3: LatchClient with an App Attest attester (the simulated one with its test CA here;
/// `DeviceCheckAppAttester` on iOS) against a real latchd that requires App Attest: enabling Face ID
/// binds an attested key naming the app, a withdrawal verified by Face ID and a Face ID sign-in each
/// carry an assertion, and a script with a phished session and its own device key binds nothing.
@Suite("Issue 31 §3: App Attest through the SDK (end to end)", .timeLimit(.minutes(10)))
struct AppAttestJourneyTests {
    static let appID = "ABCDE12345.com.example.wallet"
    static let app = AppIdentity(bundleId: "com.example.wallet", version: "2.4.1")
    static let email = "alice@example.com"
    static let password = "Correct-Horse-9"
    static let withdrawal = VerificationContext(
        action: "withdrawal", parameters: ["amount": "100.00", "currency": "USDT", "address": "TXabc"],
        localizedReason: "Withdraw 100 USDT")

    static func requiringAppAttest(_ ca: SimulatedAppAttestCA) throws -> (inout LatchConfig) -> Void {
        let pem = try ca.rootPEM
        return { config in
            config.appAttest.mode = .required
            config.appAttest.appIDs = [appID]
            config.appAttest.environment = .development
            config.appAttest.rootCertificatesPEM = pem
        }
    }

    @Test("31 §3 the SDK binds an attested key, and its Face ID verification and sign-in carry assertions")
    func test_31_3_attestedJourney() async throws {
        let ca = try SimulatedAppAttestCA()
        try await withLiveServer(adjust: try Self.requiringAppAttest(ca)) { server in
            let vault = InMemoryVault()
            let attester = SimulatedAppAttester(ca: ca, appID: Self.appID, now: { server.now })
            let client = LatchClient(
                serverURL: server.serverURL, vault: vault, clock: { server.now }, appAttester: attester, app: Self.app)
            let keys = SoftwareDeviceKeyStore(vault: vault)
            let sensor = SimulatedAuthenticator(kind: .faceID)
            let registration = try await client.signUp(
                email: Self.email, password: Self.password, nickname: "Alice", acceptTerms: true)
            _ = try await client.verifyRegistration(
                id: registration, code: try await server.latestCode(to: Self.email))

            await sensor.enqueue(.match)
            let enabled = try await client.enableBiometrics(authenticator: sensor, keys: keys, reason: "Face ID")
            guard case .enabled(let binding) = enabled else {
                Issue.record("Face ID not enabled: \(enabled)")
                return
            }
            let listed = try await client.deviceCredentials()
            #expect(listed.map(\.id) == [binding.credentialID])
            #expect(listed.first?.attested == true && listed.first?.app == Self.app)

            await sensor.enqueue(.match)
            let page = ScriptedPresenter { _ in nil }
            let result = await client.verify(
                Self.withdrawal, authenticator: sensor, keys: keys, presenter: page, language: .en)
            guard case .succeeded(let proof) = result else {
                Issue.record("not verified: \(result)")
                return
            }
            #expect(proof.method == .biometric)

            await client.signOut()
            await sensor.enqueue(.match)
            let signIn = await client.biometricSignIn(authenticator: sensor, keys: keys, language: .en)
            var update = await signIn.start(hasStoredSession: false)
            if case .showSignIn = update { update = await signIn.biometricSignInTapped() }
            guard case .finished(let outcome) = update else {
                Issue.record("biometric sign-in did not finish: \(update)")
                return
            }
            #expect(try await client.finishBiometricSignIn(outcome).email == Self.email)
        }
    }

    @Test("31 §3 a script with a phished session and its own device key binds nothing under required App Attest")
    func test_31_3_scriptWithoutAttestationRefused() async throws {
        let ca = try SimulatedAppAttestCA()
        try await withLiveServer(adjust: try Self.requiringAppAttest(ca)) { server in
            let thief = server.client()
            let registration = try await thief.signUp(
                email: Self.email, password: Self.password, nickname: "Alice", acceptTerms: true)
            _ = try await thief.verifyRegistration(id: registration, code: try await server.latestCode(to: Self.email))
            let sensor = SimulatedAuthenticator(kind: .faceID)
            await sensor.enqueue(.match)
            await #expect(throws: (any Error).self) {
                _ = try await thief.enableBiometrics(
                    authenticator: sensor, keys: SoftwareDeviceKeyStore(vault: InMemoryVault()), reason: "Face ID")
            }
            #expect(try await thief.deviceCredentials().isEmpty)
        }
    }
}
