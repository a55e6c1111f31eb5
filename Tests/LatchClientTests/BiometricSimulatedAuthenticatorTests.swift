import Foundation
import Testing

@testable import LatchClient

/// B1–B4 as the simulated sensor plays them (tests and the CLI).
@Suite("Simulated authenticator")
struct BiometricSimulatedAuthenticatorTests {
    @Test func B2_scriptedOutcomesGiveTheirLAErrorCodesInOrder() async {
        // Set-up
        let sensor = SimulatedAuthenticator(kind: .touchID)
        await sensor.enqueue(.noMatch, .cancel, .otherMethod, .systemCancel, .appCancel, .notInteractive, .error(code: -10), .match)

        // Act
        var results: [BiometricResult] = []
        for _ in 0..<8 { results.append(await sensor.evaluate(reason: "Sign in", fallbackTitle: nil)) }

        // Check
        let codes = results.map { result -> Int? in
            if case .failure(let failure) = result { return failure.code.code }
            return nil
        }
        #expect(codes == [-1, -2, -3, -4, -9, -1004, -10, nil])
        #expect(await sensor.script.isEmpty)
    }

    @Test func B3_promptsAreRecordedWithReasonAndFallbackTitle() async {
        let sensor = SimulatedAuthenticator()
        await sensor.enqueue(.match, .match)

        _ = await sensor.evaluate(reason: "Sign in to Latch", fallbackTitle: "")
        _ = await sensor.evaluate(reason: "Confirm withdrawal", fallbackTitle: nil)

        #expect(await sensor.prompts == [
            .init(reason: "Sign in to Latch", fallbackTitle: ""), .init(reason: "Confirm withdrawal", fallbackTitle: nil),
        ])
    }

    @Test func B2_lockoutLastsUntilThePasscodeUnlocks() async {
        // Set-up
        let sensor = SimulatedAuthenticator(kind: .faceID)
        await sensor.enqueue(.lockout, .match)

        // Act and check: the lockout, then prompts fail with −8 without using the script.
        #expect(await sensor.evaluate(reason: "r", fallbackTitle: nil) == .failure(BiometricFailure(code: .biometryLockout)))
        #expect(await sensor.availability() == .unavailable(.lockedOut))
        #expect(await sensor.evaluate(reason: "r", fallbackTitle: nil) == .failure(BiometricFailure(code: .biometryLockout)))
        #expect(await sensor.domainState() == nil)
        await sensor.unlock()
        #expect(await sensor.availability() == .available(kind: .faceID))
        #expect(await sensor.evaluate(reason: "r", fallbackTitle: nil) == .success)
        #expect(await sensor.prompts.count == 2)
    }

    @Test func B1_deniedPermissionIsNotAvailableUntilGranted() async {
        let sensor = SimulatedAuthenticator(kind: .faceID)
        await sensor.enqueue(.denyPermission)

        let result = await sensor.evaluate(reason: "r", fallbackTitle: nil)

        #expect(result == .failure(BiometricFailure(code: .biometryNotAvailable)))
        #expect(await sensor.availability() == .unavailable(.notAvailable))
        await sensor.grantPermission()
        #expect(await sensor.availability() == .available(kind: .faceID))
    }

    @Test func B1_unavailableReasonsFailPromptsWithTheirCodes() async {
        let sensor = SimulatedAuthenticator(kind: .touchID)
        let expected: [(BiometricUnavailableReason, BiometricErrorCode)] = [
            (.notEnrolled, .biometryNotEnrolled), (.passcodeNotSet, .passcodeNotSet), (.notAvailable, .biometryNotAvailable),
            (.lockedOut, .biometryLockout), (.notSupported, .biometryNotAvailable),
        ]

        for (reason, code) in expected {
            await sensor.setUnavailable(reason)
            #expect(await sensor.availability() == .unavailable(reason))
            #expect(await sensor.evaluate(reason: "r", fallbackTitle: nil) == .failure(BiometricFailure(code: code)))
        }
        await sensor.setUnavailable(nil)
        #expect(await sensor.availability() == .available(kind: .touchID))
        #expect(await sensor.prompts.isEmpty)
    }

    @Test func B1_noSensorIsNotSupportedAndKindCanChange() async {
        let sensor = SimulatedAuthenticator(kind: nil)

        #expect(await sensor.availability() == .unavailable(.notSupported))
        await sensor.setKind(.touchID)
        #expect(await sensor.availability() == .available(kind: .touchID))
        await sensor.setKind(.faceID)
        #expect(await sensor.availability() == .available(kind: .faceID))
    }

    @Test func B4_reenrollmentChangesTheDomainState() async throws {
        let sensor = SimulatedAuthenticator()
        let before = try #require(await sensor.domainState())

        await sensor.reenroll()
        let after = try #require(await sensor.domainState())
        await sensor.setDomainState(before)

        #expect(before != after)
        #expect(EnrollmentCheck.evaluate(stored: before, current: after) == .changed)
        #expect(await sensor.domainState() == before)
    }

    @Test func B2_beyondTheScriptTheHookThenTheDefaultDecide() async {
        // The hook (a terminal UI in the CLI) decides unscripted prompts.
        let hooked = SimulatedAuthenticator(decide: { prompt in prompt.reason == "yes" ? .match : .noMatch })
        #expect(await hooked.evaluate(reason: "yes", fallbackTitle: nil) == .success)
        #expect(await hooked.evaluate(reason: "no", fallbackTitle: nil) == .failure(BiometricFailure(code: .authenticationFailed)))

        // Without a hook: the user cancels, unless told otherwise.
        let plain = SimulatedAuthenticator()
        #expect(await plain.evaluate(reason: "r", fallbackTitle: nil) == .failure(BiometricFailure(code: .userCancel)))
        await plain.setWhenUnscripted(.match)
        #expect(await plain.evaluate(reason: "r", fallbackTitle: nil) == .success)
    }
}
