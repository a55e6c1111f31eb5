import Foundation
import Testing

@testable import LatchClient

/// B1–B4 as the simulated sensor plays them (tests and the CLI).
@Suite("Simulated authenticator")
struct BiometricSimulatedAuthenticatorTests {
    @Test func B2_scriptedOutcomesGiveTheirLAErrorCodesInOrder() async {
        // Set-up
        let sensor = SimulatedAuthenticator(kind: .touchID)
        await sensor.enqueue(
            .noMatch, .noMatch, .noMatch, .cancel, .otherMethod, .systemCancel, .appCancel, .notInteractive,
            .error(code: -10),
            .match)

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

        #expect(
            await sensor.prompts == [
                .init(reason: "Sign in to Latch", fallbackTitle: ""),
                .init(reason: "Confirm withdrawal", fallbackTitle: nil)
            ])
    }

    @Test func B2_lockoutLastsUntilThePasscodeUnlocks() async {
        // Set-up
        let sensor = SimulatedAuthenticator(kind: .faceID)
        await sensor.enqueue(.lockout, .match)

        // Act and check: the lockout, then prompts fail with −8 without using the script.
        #expect(
            await sensor.evaluate(reason: "r", fallbackTitle: nil) == .failure(BiometricFailure(code: .biometryLockout))
        )
        #expect(await sensor.availability() == .unavailable(.lockedOut))
        #expect(
            await sensor.evaluate(reason: "r", fallbackTitle: nil) == .failure(BiometricFailure(code: .biometryLockout))
        )
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
            (.notEnrolled, .biometryNotEnrolled), (.passcodeNotSet, .passcodeNotSet),
            (.notAvailable, .biometryNotAvailable),
            (.lockedOut, .biometryLockout), (.notSupported, .biometryNotAvailable)
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
        let hooked = SimulatedAuthenticator(
            kind: .touchID, decide: { prompt in prompt.reason == "yes" ? .match : .noMatch })
        #expect(await hooked.evaluate(reason: "yes", fallbackTitle: nil) == .success)
        #expect(
            await hooked.evaluate(reason: "no", fallbackTitle: nil)
                == .failure(BiometricFailure(code: .authenticationFailed)))

        // Without a hook: the user cancels, unless told otherwise.
        let plain = SimulatedAuthenticator()
        #expect(await plain.evaluate(reason: "r", fallbackTitle: nil) == .failure(BiometricFailure(code: .userCancel)))
        await plain.setWhenUnscripted(.match)
        #expect(await plain.evaluate(reason: "r", fallbackTitle: nil) == .success)
    }

    // MARK: Issue 11 §1: real Face ID and Touch ID sequences

    @Test(
        "issue 11 Face ID scans again by itself, then waits on its buttons; Cancel after failed scans is −2 with a failed scan, never −1"
    )
    func test_11_1_faceIDRetriesInsideOnePromptAndNeverReportsMinusOne() async {
        let sensor = SimulatedAuthenticator(kind: .faceID)
        // One prompt: a failed scan, the automatic second scan fails, "Try Face ID Again" fails, Cancel.
        await sensor.enqueue(.noMatch, .noMatch, .tryAgain, .noMatch, .cancel)

        let failedThenCancelled = await sensor.evaluate(reason: "r", fallbackTitle: nil)

        #expect(failedThenCancelled == .failure(BiometricFailure(code: .userCancel, scanFailed: true)))
        #expect(await sensor.prompts.count == 1)
        #expect(await sensor.consecutiveFailures == 3)

        // A failed scan then a match in the same prompt: success, and the count starts again.
        await sensor.enqueue(.noMatch, .match)
        #expect(await sensor.evaluate(reason: "r", fallbackTitle: nil) == .success)
        #expect(await sensor.consecutiveFailures == 0)

        // The fallback button after failed scans: −3.
        await sensor.enqueue(.noMatch, .noMatch, .otherMethod)
        #expect(
            await sensor.evaluate(reason: "r", fallbackTitle: nil)
                == .failure(BiometricFailure(code: .userFallback, scanFailed: true)))

        // Cancel before any failed scan: the user's cancel, no failed scan.
        await sensor.enqueue(.cancel)
        #expect(await sensor.evaluate(reason: "r", fallbackTitle: nil) == .failure(BiometricFailure(code: .userCancel)))
    }

    @Test(
        "issue 11 Touch ID reports −1 after three failed touches in one prompt; Cancel after one touch is −2 with a failed touch"
    )
    func test_11_1_touchIDReportsMinusOneAfterThreeTouches() async {
        let sensor = SimulatedAuthenticator(kind: .touchID)
        await sensor.enqueue(.noMatch, .noMatch, .noMatch, .match, .noMatch, .cancel, .tryAgain, .noMatch, .match)

        #expect(
            await sensor.evaluate(reason: "r", fallbackTitle: nil)
                == .failure(BiometricFailure(code: .authenticationFailed)))
        #expect(await sensor.consecutiveFailures == 3)
        #expect(await sensor.evaluate(reason: "r", fallbackTitle: nil) == .success)
        #expect(
            await sensor.evaluate(reason: "r", fallbackTitle: nil)
                == .failure(BiometricFailure(code: .userCancel, scanFailed: true)))
        // Touch ID has no "Try Again" button: the step is ignored and the touch after it matches.
        #expect(await sensor.evaluate(reason: "r", fallbackTitle: nil) == .success)
        #expect(BiometricFailure(code: .authenticationFailed).scanFailed)
    }

    @Test(
        "issue 11 both sensors lock out (−8) on the fifth consecutive failure, across prompts; it lasts until the passcode",
        arguments: [BiometryKind.faceID, .touchID])
    func test_11_1_fifthConsecutiveFailureLocksOutAcrossPrompts(kind: BiometryKind) async {
        let sensor = SimulatedAuthenticator(kind: kind)
        // Two prompts of two failed scans each, cancelled; the fifth failure comes in the third prompt.
        await sensor.enqueue(.noMatch, .cancel, .noMatch, .noMatch, .cancel, .noMatch, .noMatch, .noMatch)

        #expect(
            await sensor.evaluate(reason: "1", fallbackTitle: nil)
                == .failure(BiometricFailure(code: .userCancel, scanFailed: true)))
        #expect(
            await sensor.evaluate(reason: "2", fallbackTitle: nil)
                == .failure(BiometricFailure(code: .userCancel, scanFailed: true)))
        #expect(await sensor.consecutiveFailures == 3)
        // Touch ID: 4th and 5th touches; Face ID: 4th and 5th scans. Both lock out on the fifth.
        #expect(
            await sensor.evaluate(reason: "3", fallbackTitle: nil)
                == .failure(BiometricFailure(code: .biometryLockout, scanFailed: true)))
        #expect(await sensor.script == [.noMatch], "the prompt ended on the fifth failure")
        #expect(await sensor.availability() == .unavailable(.lockedOut))

        // Locked: a prompt fails at once, without a scan, and takes no step.
        #expect(
            await sensor.evaluate(reason: "4", fallbackTitle: nil) == .failure(BiometricFailure(code: .biometryLockout))
        )
        #expect(await sensor.prompts.count == 3)

        #expect(await sensor.script == [.noMatch])

        // The passcode prompt: not entered (the left-over step is no passcode), it stays locked; entered,
        // biometry is back with a fresh count.
        await sensor.enqueue(.passcode, .match)
        #expect(
            await sensor.unlockWithPasscode(reason: "p", cancelTitle: "取消")
                == .failure(BiometricFailure(code: .userCancel)))
        #expect(await sensor.availability() == .unavailable(.lockedOut))
        #expect(await sensor.unlockWithPasscode(reason: "p", cancelTitle: "取消") == .success)
        #expect(await sensor.availability() == .available(kind: kind))
        #expect(await sensor.consecutiveFailures == 0)
        #expect(await sensor.evaluate(reason: "5", fallbackTitle: nil) == .success)
        #expect(await sensor.prompts.last == .init(reason: "5", fallbackTitle: nil))
        #expect(await sensor.prompts.filter(\.asksForPasscode).count == 2)
    }

    @Test("issue 11 a match resets the consecutive count: four failures, a match, four failures do not lock out")
    func test_11_1_matchResetsTheCount() async {
        let sensor = SimulatedAuthenticator(kind: .faceID)
        await sensor.enqueue(
            .noMatch, .noMatch, .noMatch, .noMatch, .match, .noMatch, .noMatch, .noMatch, .noMatch, .cancel)

        #expect(await sensor.evaluate(reason: "r", fallbackTitle: nil) == .success)
        #expect(
            await sensor.evaluate(reason: "r", fallbackTitle: nil)
                == .failure(BiometricFailure(code: .userCancel, scanFailed: true)))
        #expect(await sensor.availability() == .available(kind: .faceID))
        #expect(await sensor.consecutiveFailures == 4)
    }

    @Test("issue 11 the prompt records its cancel title")
    func test_11_1_promptRecordsCancelTitle() async {
        let sensor = SimulatedAuthenticator(kind: .faceID)
        await sensor.enqueue(.match)

        _ = await sensor.evaluate(reason: "r", fallbackTitle: "使用密码验证", cancelTitle: "取消")

        #expect(await sensor.prompts == [.init(reason: "r", fallbackTitle: "使用密码验证", cancelTitle: "取消")])
    }

    // MARK: Issue 11 §1: what a real prompt's ending says about failed scans

    @Test(
        "issue 11 FailedScanInference: Face ID's Cancel and every fallback follow a failed scan; −8 only if usable before"
    )
    func test_11_1_failedScanInferenceFromWhatLAContextReveals() {
        func infer(_ code: BiometricErrorCode, _ kind: BiometryKind, lockedBefore: Bool = false, seconds: Double = 0.5)
            -> Bool
        {
            FailedScanInference.scanFailed(code: code, kind: kind, lockedOutBefore: lockedBefore, secondsShown: seconds)
        }
        #expect(infer(.authenticationFailed, .touchID))
        // Face ID shows Cancel and the fallback only after failed scans.
        #expect(infer(.userCancel, .faceID))
        #expect(infer(.userCancel, .opticID))
        #expect(infer(.userFallback, .faceID))
        // Touch ID shows the fallback only after a failed touch; its Cancel from the start.
        #expect(infer(.userFallback, .touchID))
        #expect(!infer(.userCancel, .touchID, seconds: 0.8))
        #expect(infer(.userCancel, .touchID, seconds: FailedScanInference.touchIDCancelAfterTouch))
        // −8: a failure in this prompt, unless the prompt failed at once because it was locked already.
        #expect(infer(.biometryLockout, .faceID))
        #expect(!infer(.biometryLockout, .touchID, lockedBefore: true))
        for code in [
            BiometricErrorCode.systemCancel, .appCancel, .passcodeNotSet, .biometryNotAvailable, .biometryNotEnrolled,
            .invalidContext, .notInteractive, .other(-42)
        ] {
            #expect(!infer(code, .faceID, seconds: 10), "\(code)")
        }
    }
}
