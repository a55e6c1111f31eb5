import LatchCore
import Testing

@testable import LatchServer

/// Issue 44 §2: the plan's decision on one attempt, as a pure value, without a database.
@Suite("The verification's step (issue 44 §2)")
struct VerificationStepTests {
    static let twoKinds = VerificationPlan(requiredFactors: 2, kinds: [.biometric, .totp, .fundPassword])

    @Test("44 §2 one factor: the first method the plan allows completes the verification")
    func test_44_2_oneFactorCompletes() {
        let step = VerificationStep.of(.totp, plan: VerificationPlan(), passed: [], admitted: true)
        #expect(step == .complete(passed: [.totp]))
    }

    @Test("44 §2 two factors: the first pass needs another, the second different kind completes in order")
    func test_44_2_twoFactorsNeedAnotherThenComplete() {
        let first = VerificationStep.of(.biometric, plan: Self.twoKinds, passed: [], admitted: true)
        #expect(first == .needsAnother(passed: [.biometric], remaining: 1))
        let second = VerificationStep.of(.fundPassword, plan: Self.twoKinds, passed: [.biometric], admitted: true)
        #expect(second == .complete(passed: [.biometric, .fundPassword]))
    }

    @Test("44 §2 a kind the plan does not let count is not offered, whatever passed before")
    func test_44_2_kindOutsideThePlanIsNotOffered() {
        #expect(VerificationStep.of(.emailCode, plan: Self.twoKinds, passed: [], admitted: true) == .notOffered)
        #expect(VerificationStep.of(.passkey, plan: Self.twoKinds, passed: [.totp], admitted: true) == .notOffered)
    }

    @Test("44 §2 the same kind never counts twice")
    func test_44_2_sameKindTwiceIsAlreadyPassed() {
        #expect(VerificationStep.of(.totp, plan: Self.twoKinds, passed: [.totp], admitted: true) == .alreadyPassed)
    }

    @Test("44 §2 a kind a security hold does not admit is not offered, even when the plan allows it")
    func test_44_2_kindTheHoldRefusesIsNotOffered() {
        #expect(VerificationStep.of(.totp, plan: VerificationPlan(), passed: [], admitted: false) == .notOffered)
        #expect(VerificationStep.of(.totp, plan: Self.twoKinds, passed: [.biometric], admitted: false) == .notOffered)
    }

    @Test("44 §2 three factors count down: two remaining, one remaining, complete")
    func test_44_2_threeFactorsCountDown() {
        let plan = VerificationPlan(requiredFactors: 3)
        #expect(
            VerificationStep.of(.passkey, plan: plan, passed: [], admitted: true)
                == .needsAnother(passed: [.passkey], remaining: 2))
        #expect(
            VerificationStep.of(.totp, plan: plan, passed: [.passkey], admitted: true)
                == .needsAnother(passed: [.passkey, .totp], remaining: 1))
        #expect(
            VerificationStep.of(.emailCode, plan: plan, passed: [.passkey, .totp], admitted: true)
                == .complete(passed: [.passkey, .totp, .emailCode]))
    }
}
