import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 14 §5: one biometric vocabulary. Every `LAError` code is mapped once, into `BiometricOutcome`;
/// the verification page and biometric sign-in both read it and each decides its own reaction. The
/// three codes the two old mappings disagreed on (−10, −1004, unknown) are decided here.
@Suite("One biometric vocabulary (issue 14 §5)")
struct BiometricVocabularyTests {
    typealias F = VerificationFixtures

    static let unknownCodes = [-11, -12, -14, -42, -1000, -1005, 0, 1]

    @Test("14 −10 is unexpected: Apple says the context was invalidated earlier, seed 003 a programming error")
    func I14_invalidContextIsUnexpected() {
        for kind in BiometryKind.allCases {
            #expect(BiometricOutcome(BiometricFailure(laErrorCode: -10), kind: kind) == .unexpected)
        }
        #expect(BiometricErrorCode(code: -10).handling == .unexpected)
    }

    @Test("14 −1004 is notInteractive: the prompt could not appear while the app was not active")
    func I14_notInteractiveIsItsOwnOutcome() {
        for kind in BiometryKind.allCases {
            #expect(BiometricOutcome(BiometricFailure(laErrorCode: -1004), kind: kind) == .notInteractive)
        }
        #expect(BiometricErrorCode(code: -1004).handling == .retryWhenActive)
    }

    @Test("14 an unknown code is unexpected on every sensor, never 'not available'", arguments: unknownCodes)
    func I14_unknownCodesAreUnexpected(code: Int) {
        for kind in BiometryKind.allCases {
            #expect(BiometricOutcome(BiometricFailure(laErrorCode: code), kind: kind) == .unexpected)
            #expect(BiometricOutcome(BiometricFailure(laErrorCode: code, scanFailed: true), kind: kind) == .unexpected)
        }
        #expect(BiometricErrorCode(code: code).handling == .unexpected)
    }

    @Test("14 the B2 handling class of every code is the class of its outcome, on every sensor")
    func I14_handlingComesFromTheOutcome() {
        for code in BiometricErrorCode.named.map(\.code) + Self.unknownCodes {
            for kind in BiometryKind.allCases {
                for scanFailed in [false, true] {
                    let failure = BiometricFailure(laErrorCode: code, scanFailed: scanFailed)
                    #expect(
                        BiometricOutcome(failure, kind: kind).handling == failure.handling, "LAError \(code) on \(kind)"
                    )
                }
            }
        }
        #expect(BiometricOutcome.success.handling == nil)
        #expect(BiometricOutcome.allCases.filter { $0.handling == nil } == [.success])
    }

    @Test("14 −6 is this app's permission on Face ID and Optic ID, an unavailable sensor on Touch ID")
    func I14_notAvailableDependsOnTheSensor() {
        let failure = BiometricFailure(laErrorCode: -6)
        #expect(BiometricOutcome(failure, kind: .faceID) == .permissionDenied)
        #expect(BiometricOutcome(failure, kind: .opticID) == .permissionDenied)
        #expect(BiometricOutcome(failure, kind: .touchID) == .notAvailable)
        #expect(BiometricOutcome(.failure(failure), sensor: .faceID) == .permissionDenied)
        #expect(BiometricOutcome(.failure(failure), sensor: .touchID) == .notAvailable)
    }

    // MARK: - Each machine's reaction to the decided codes

    @Test("14 sign-in: −1004 waits for the app to become active, then prompts again")
    func I14_signInWaitsAfterNotInteractive() {
        var machine = BiometricSignInTests.evaluating()

        #expect(machine.evaluationFinished(.failure(BiometricFailure(laErrorCode: -1004))) == .none)
        #expect(machine.appBecameActive() == BiometricSignInTests.evaluate)
    }

    @Test("14 sign-in: −10 and unknown codes say verification failed and keep Face ID on offer", arguments: [-10, -42])
    func I14_signInShowsAGenericFailure(code: Int) {
        var machine = BiometricSignInTests.evaluating()

        let action = machine.evaluationFinished(.failure(BiometricFailure(laErrorCode: code)))

        #expect(action == .showSignIn(BiometricSignIn.SignInScreen(biometricOption: .faceID, notice: .failed(.faceID))))
        #expect(BiometricNotice.failed(.faceID).text(in: .zhHans) == "Face ID验证失败")
    }

    @Test("14 verification: −1004 is an interruption, not counted: 再试一次 with the attempts untouched")
    func I14_verificationTreatsNotInteractiveAsInterruption() {
        var flow = F.evaluating()

        let screen = flow.biometricFinished(
            BiometricOutcome(.failure(BiometricFailure(laErrorCode: -1004)), sensor: .faceID)
        ).screen

        #expect(screen?.message == "Face ID验证已中断，请再试一次")
        #expect(screen?.button(.retry) != nil)
        // Not counted: the next real failure is still the first of three.
        #expect(flow.userTappedRetry().evaluatesBiometrics)
        #expect(flow.biometricFinished(.failed).screen?.message == "第1/3次尝试失败")
    }

    @Test(
        "14 verification: −10 and unknown codes fail without counting, retry and other methods stay",
        arguments: [-10, -42])
    func I14_verificationShowsUnexpectedFailure(code: Int) {
        var flow = F.evaluating(language: .zhHans)

        let screen = flow.biometricFinished(
            BiometricOutcome(.failure(BiometricFailure(laErrorCode: code)), sensor: .faceID)
        ).screen

        #expect(screen?.message == "Face ID验证失败，请再试一次")
        #expect(screen?.button(.retry) != nil)
        #expect(flow.userTappedRetry().evaluatesBiometrics)
        #expect(flow.biometricFinished(.failed).screen?.message == "第1/3次尝试失败")

        var english = F.evaluating(language: .en)
        let message = english.biometricFinished(.unexpected).screen?.message
        #expect(message == "Face ID verification failed. Please try again.")
    }
}
