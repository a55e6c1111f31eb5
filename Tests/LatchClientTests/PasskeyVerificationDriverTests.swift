// Issue 13 §2: the driver asks the environment whether the device has a passkey for the server's
// offer, runs the sheet, and sends the assertion as a `passkey` attempt.
import Foundation
import LatchClient
import LatchCore
import LatchTestSupport
import Testing

@Suite("Verification driver: passkey (issue 13 §2)")
struct PasskeyVerificationDriverTests {
    typealias F = VerificationFixtures

    @Test func test_I13_theDriverRunsTheSheetAndSendsAPasskeyAttempt() async throws {
        let started = F.withPasskey(F.started(biometric: false))
        let environment = PasskeyEnvironment(started: started, devicePasskey: true)
        let driver = VerificationDriver(flow: F.flow(F.device(enabled: false)), environment: environment)

        let result = await driver.run()

        #expect(
            result
                == .succeeded(
                    VerificationProof(token: "vt-123", expiresIn: 300, context: F.withdrawal, method: .passkey)))
        let options = F.passkeyOffer(for: started).options
        #expect(await environment.askedOptions == [options!])
        #expect(await environment.sheets == [options!])
        #expect(await environment.attempts == [VerificationAttempt(method: .passkey, credential: F.passkeyAssertion)])
        #expect(await environment.screens.map(\.kind) == [.preparing, .passkey, .passkey])
    }

    @Test func test_I13_withoutAPasskeyHereTheDriverNeverOpensTheSheet() async throws {
        let started = F.withPasskey(F.started(biometric: false))
        let environment = PasskeyEnvironment(started: started, devicePasskey: false)
        let driver = VerificationDriver(flow: F.flow(F.device(enabled: false)), environment: environment)

        let run = Task { await driver.run() }
        #expect(try await eventually { await environment.screens.last?.kind == .oneTimeCode })
        driver.send(.tapped(.cancel))

        #expect(await run.value == .cancelled)
        #expect(await environment.askedOptions.count == 1)
        #expect(await environment.sheets.isEmpty)
        #expect(await environment.screens.last?.button(.usePasskey) == nil)
    }
}
