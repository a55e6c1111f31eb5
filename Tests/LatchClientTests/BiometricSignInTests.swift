import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// C12, B6 (and B2, B4 as they reach sign-in): the biometric sign-in state machine, step by step.
@Suite("C12 biometric sign-in machine")
struct BiometricSignInTests {
    typealias Screen = BiometricSignIn.SignInScreen

    static let binding = BiometricBinding(credentialID: "cred-1", biometry: .faceID)
    static let touchBinding = BiometricBinding(credentialID: "cred-2", biometry: .touchID)
    static let challenge = SignatureChallengeInfo(challengeId: "chl-1", challenge: "c-1", expiresIn: 120)
    static let tokens = TokenResponse(
        accessToken: "access", expiresIn: 7200, refreshToken: "refresh", refreshExpiresIn: 2_592_000, sessionId: "s-1",
        user: UserInfo(
            id: "u-1", email: "a@example.com", emailVerified: true, nickname: nil,
            createdAt: Date(timeIntervalSince1970: 0)))
    static let evaluate = BiometricSignIn.Action.evaluate(
        reason: "Use Face ID to sign in to your account", fallbackTitle: "Sign in with password", cancelTitle: "Cancel")

    static func failure(_ code: Int) -> BiometricResult { .failure(BiometricFailure(laErrorCode: code)) }

    /// A machine for a bound Face ID device without a session, prompt up.
    static func evaluating(_ binding: BiometricBinding = binding, hasStoredSession: Bool = false) -> BiometricSignIn {
        var machine = BiometricSignIn()
        _ = machine.appLaunched(binding: binding, hasStoredSession: hasStoredSession)
        _ = machine.availabilityKnown(.available(kind: binding.biometry), enrollment: .usable)
        return machine
    }

    // MARK: - Happy paths

    @Test func B6_boundDeviceSignsInAfterSignOut() throws {
        var machine = BiometricSignIn()

        // Launch, signed out, bound: check first.
        #expect(machine.appLaunched(binding: Self.binding, hasStoredSession: false) == .checkAvailability)
        // Face ID is there and unchanged: prompt.
        #expect(machine.availabilityKnown(.available(kind: .faceID), enrollment: .usable) == Self.evaluate)
        // A match: ask the server for a challenge for this credential.
        #expect(machine.evaluationFinished(.success) == .requestChallenge(credentialID: "cred-1"))
        // The challenge: sign the login message of the contract.
        #expect(
            machine.challengeReceived(Self.challenge)
                == .sign(try SignedMessage.login(challengeID: "chl-1", challenge: "c-1")))
        // Signed: exchange it.
        #expect(machine.signed(signature: "sig") == .exchange(challengeID: "chl-1", signature: "sig"))
        // Tokens: signed in.
        #expect(machine.tokensReceived(Self.tokens) == .finish(.signedIn(Self.tokens)))
        // Nothing moves it afterwards.
        #expect(machine.userChosePassword() == .none)
        #expect(machine.userTappedBiometricSignIn() == .none)
    }

    @Test func C12_storedSessionIsEnteredAfterAMatch() {
        var machine = BiometricSignIn()

        #expect(machine.appLaunched(binding: Self.binding, hasStoredSession: true) == .checkAvailability)
        #expect(machine.availabilityKnown(.available(kind: .faceID), enrollment: .usable) == Self.evaluate)
        // A match reads the stored session; the device key and the server are not needed.
        #expect(machine.evaluationFinished(.success) == .finish(.useStoredSession))
    }

    @Test func B6_unboundDeviceShowsNoBiometricOption() {
        var machine = BiometricSignIn()

        let action = machine.appLaunched(binding: nil, hasStoredSession: false)

        #expect(action == .showSignIn(Screen(biometricOption: nil, notice: nil)))
        #expect(machine.userTappedBiometricSignIn() == .none)
    }

    @Test func C12_notEnabledWithStoredSessionEntersDirectly() {
        var machine = BiometricSignIn()

        #expect(machine.appLaunched(binding: nil, hasStoredSession: true) == .finish(.useStoredSession))
    }

    // MARK: - C12 failure → sign-in screen, password always offered

    @Test func C12_noMatchShowsSignInWithMessageAndRetry() {
        var machine = Self.evaluating(Self.touchBinding)

        // Touch ID reports −1: an in-app message, the biometric option stays.
        let action = machine.evaluationFinished(Self.failure(-1))
        #expect(action == .showSignIn(Screen(biometricOption: .touchID, notice: .notRecognized(.touchID))))
        #expect(Screen(biometricOption: .touchID, notice: nil).offersPassword)
        // Retry: checks again (it may have locked out meanwhile).
        #expect(machine.userTappedBiometricSignIn() == .checkAvailability)
        #expect(
            machine.availabilityKnown(.available(kind: .touchID), enrollment: .usable)
                == .evaluate(
                    reason: "Use Touch ID to sign in to your account", fallbackTitle: "Sign in with password",
                    cancelTitle: "Cancel"))
        #expect(machine.evaluationFinished(.success) == .requestChallenge(credentialID: "cred-2"))
    }

    @Test(arguments: [-2, -4, -9])
    func B2_cancelLikeShowsSignInWithoutMessage(code: Int) {
        var machine = Self.evaluating()

        let action = machine.evaluationFinished(Self.failure(code))

        #expect(action == .showSignIn(Screen(biometricOption: .faceID, notice: nil)))
    }

    @Test func B2_settingsLikeHidesTheOptionAndPointsToSettings() {
        let expected: [(Int, BiometricNotice)] = [
            (-5, .passcodeNotSet(.faceID)), (-6, .notAvailable(.faceID)), (-7, .notEnrolled(.faceID))
        ]
        for (code, notice) in expected {
            var machine = Self.evaluating()

            let action = machine.evaluationFinished(Self.failure(code))

            #expect(action == .showSignIn(Screen(biometricOption: nil, notice: notice)), "LAError \(code)")
            #expect(notice.suggestsSettings)
        }
    }

    @Test func B1_lockedOutAtLaunchOffersThePasscode() {
        var machine = BiometricSignIn()
        _ = machine.appLaunched(binding: Self.binding, hasStoredSession: false)

        let action = machine.availabilityKnown(.unavailable(.lockedOut), enrollment: .usable)

        #expect(
            action == .showSignIn(Screen(biometricOption: nil, notice: .lockedOut(.faceID), offersPasscodeUnlock: true))
        )
    }

    @Test func test_23_1_lockoutOnSignInOffersPasscodeUnlock() {
        var machine = Self.evaluating()
        _ = machine.evaluationFinished(Self.failure(-8))

        // "输入设备密码解锁…": the passcode prompt.
        let unlock = machine.userTappedUnlockWithPasscode()
        #expect(unlock == .unlockWithPasscode(reason: "Enter your passcode to unlock Face ID.", cancelTitle: "Cancel"))

        // Not entered: the locked screen stays.
        #expect(
            machine.passcodeUnlockFinished(unlocked: false)
                == .showSignIn(Screen(biometricOption: nil, notice: .lockedOut(.faceID), offersPasscodeUnlock: true)))

        // Entered: biometrics are checked and tried again at once.
        _ = machine.userTappedUnlockWithPasscode()
        #expect(machine.passcodeUnlockFinished(unlocked: true) == .checkAvailability)
        if case .evaluate = machine.availabilityKnown(.available(kind: .faceID), enrollment: .usable) {
        } else {
            Issue.record("the prompt should run again after the passcode")
        }
        // A stale tap on the unlock button changes nothing.
        #expect(machine.userTappedUnlockWithPasscode() == .none)
        #expect(BiometricStrings.unlockWithPasscode(.touchID, in: .zhHans) == "输入设备密码解锁指纹")
    }

    @Test func B2_lockoutHidesFaceIDAndOffersThePasscodeUnlock() {
        var machine = Self.evaluating()

        let action = machine.evaluationFinished(Self.failure(-8))

        // Issue 23 §1 (seed 003 §5.3.2): the locked screen also offers the device passcode to unlock.
        #expect(
            action == .showSignIn(Screen(biometricOption: nil, notice: .lockedOut(.faceID), offersPasscodeUnlock: true))
        )
        #expect(!BiometricNotice.lockedOut(.faceID).suggestsSettings)
    }

    @Test func B2_userFallbackGoesToThePasswordForm() {
        var machine = Self.evaluating()

        let action = machine.evaluationFinished(Self.failure(-3))

        #expect(action == .showSignIn(Screen(biometricOption: .faceID, notice: nil)))
    }

    @Test func B2_notInteractivePromptsAgainWhenActive() {
        var machine = Self.evaluating()

        // −1004: the app was in the background; nothing is shown.
        #expect(machine.evaluationFinished(Self.failure(-1004)) == .none)
        // The app comes to the front: the prompt appears.
        #expect(machine.appBecameActive() == Self.evaluate)
        #expect(machine.evaluationFinished(.success) == .requestChallenge(credentialID: "cred-1"))
        // Becoming active again changes nothing.
        #expect(machine.appBecameActive() == .none)
    }

    @Test(arguments: [-10, -42])
    func B2_unexpectedCodesShowAGenericFailure(code: Int) {
        var machine = Self.evaluating()

        let action = machine.evaluationFinished(Self.failure(code))

        #expect(action == .showSignIn(Screen(biometricOption: .faceID, notice: .failed(.faceID))))
    }

    @Test func B1_unavailableAtLaunchShowsWhy() {
        let expected: [(BiometricUnavailableReason, BiometricNotice)] = [
            (.notEnrolled, .notEnrolled(.faceID)), (.passcodeNotSet, .passcodeNotSet(.faceID)),
            // Issue 23 §1: the capability check's own "指纹不可用" notice; a lockout is tested below.
            (.notAvailable, .unavailable(.faceID)), (.notSupported, .notSupported)
        ]
        for (reason, notice) in expected {
            var machine = BiometricSignIn()
            _ = machine.appLaunched(binding: Self.binding, hasStoredSession: false)

            // The enrollment check is meaningless while unavailable and is ignored.
            let action = machine.availabilityKnown(.unavailable(reason), enrollment: .usable)

            #expect(action == .showSignIn(Screen(biometricOption: nil, notice: notice)), "\(reason)")
        }
    }

    // MARK: - B4 and lost bindings: turn biometric login off, never the session

    @Test func B4_changedEnrollmentTurnsBiometricLoginOff() {
        var machine = BiometricSignIn()
        _ = machine.appLaunched(binding: Self.binding, hasStoredSession: true)

        // Someone enrolled another face: forget the binding (the driver keeps the session).
        #expect(machine.availabilityKnown(.available(kind: .faceID), enrollment: .changed) == .forgetBinding)
        // Password choice while forgetting changes nothing; the screen comes next.
        #expect(machine.userChosePassword() == .none)
        // Forgotten: the sign-in screen asks to sign in and enable it again.
        #expect(
            machine.bindingForgotten() == .showSignIn(Screen(biometricOption: nil, notice: .enrollmentChanged(.faceID)))
        )
    }

    @Test func B4_keptStateGoneMeanwhileOffersNothingAndDeletesNothing() {
        var machine = BiometricSignIn()
        _ = machine.appLaunched(binding: Self.binding, hasStoredSession: false)

        let action = machine.availabilityKnown(.available(kind: .faceID), enrollment: .notEnabled)

        #expect(action == .showSignIn(Screen(biometricOption: nil, notice: nil)))
    }

    @Test func B6_credentialUnknownToTheServerTurnsBiometricLoginOff() {
        var machine = Self.evaluating()
        _ = machine.evaluationFinished(.success)

        #expect(machine.serverRejected(.credentialNotFound) == .forgetBinding)
        #expect(
            machine.bindingForgotten() == .showSignIn(Screen(biometricOption: nil, notice: .bindingRemoved(.faceID))))
    }

    @Test func B4_keyTheEnclaveRefusesTurnsBiometricLoginOff() throws {
        var machine = Self.evaluating()
        _ = machine.evaluationFinished(.success)
        _ = machine.challengeReceived(Self.challenge)

        #expect(machine.signingFailed(.unusable) == .forgetBinding)
        #expect(
            machine.bindingForgotten() == .showSignIn(Screen(biometricOption: nil, notice: .enrollmentChanged(.faceID)))
        )
    }

    @Test func B6_missingKeyTurnsBiometricLoginOff() {
        var machine = Self.evaluating()
        _ = machine.evaluationFinished(.success)
        _ = machine.challengeReceived(Self.challenge)

        #expect(machine.signingFailed(.noKey) == .forgetBinding)
        #expect(
            machine.bindingForgotten() == .showSignIn(Screen(biometricOption: nil, notice: .bindingRemoved(.faceID))))
    }

    // MARK: - Transient failures keep the binding

    @Test func B6_signingFailuresKeepTheOption() {
        let expected: [(DeviceKeyError, BiometricNotice?)] = [
            (.cancelled, nil), (.authenticationFailed, .notRecognized(.faceID)), (.unavailable, .failed(.faceID)),
            (.platform(code: -1), .failed(.faceID))
        ]
        for (error, notice) in expected {
            var machine = Self.evaluating()
            _ = machine.evaluationFinished(.success)
            _ = machine.challengeReceived(Self.challenge)

            #expect(
                machine.signingFailed(error) == .showSignIn(Screen(biometricOption: .faceID, notice: notice)),
                "\(error)")
        }
    }

    @Test func B6_networkFailureSuggestsARetry() {
        var machine = Self.evaluating()
        _ = machine.evaluationFinished(.success)

        #expect(
            machine.serverRejected(.network) == .showSignIn(Screen(biometricOption: .faceID, notice: .networkError)))
        #expect(machine.userTappedBiometricSignIn() == .checkAvailability)
    }

    @Test func C11_serverMessageIsShown() {
        var machine = Self.evaluating()
        _ = machine.evaluationFinished(.success)
        _ = machine.challengeReceived(Self.challenge)
        _ = machine.signed(signature: "sig")

        let action = machine.serverRejected(.server(code: .locked, message: "账号已被锁定"))

        #expect(action == .showSignIn(Screen(biometricOption: .faceID, notice: .server("账号已被锁定"))))
    }

    @Test func B6_rejectedSignatureKeepsTheBinding() {
        var machine = Self.evaluating()
        _ = machine.evaluationFinished(.success)
        _ = machine.challengeReceived(Self.challenge)
        _ = machine.signed(signature: "sig")

        #expect(
            machine.serverRejected(.signatureRejected)
                == .showSignIn(Screen(biometricOption: .faceID, notice: .failed(.faceID))))
        #expect(machine.serverRejected(.server(code: nil, message: nil)) == .none)
    }

    @Test func A11_challengeWithALineFeedIsNotSigned() {
        var machine = Self.evaluating()
        _ = machine.evaluationFinished(.success)

        let action = machine.challengeReceived(
            SignatureChallengeInfo(challengeId: "chl-1", challenge: "a\nlogin", expiresIn: 120))

        #expect(action == .showSignIn(Screen(biometricOption: .faceID, notice: .failed(.faceID))))
    }

    // MARK: - Password is always possible

    @Test func C12_choosingPasswordAbandonsTheTryAndIgnoresLateAnswers() throws {
        var machine = Self.evaluating()
        _ = machine.evaluationFinished(.success)

        // The user taps "Sign in with password" while the challenge is on its way.
        #expect(machine.userChosePassword() == .showSignIn(Screen(biometricOption: .faceID, notice: nil)))
        // The challenge arrives late: ignored.
        #expect(machine.challengeReceived(Self.challenge) == .none)
        #expect(machine.userChosePassword() == .none)
        // Face ID again later starts over.
        #expect(machine.userTappedBiometricSignIn() == .checkAvailability)
        #expect(machine.userTappedBiometricSignIn() == .none)
    }

    @Test func C12_passwordWhileCheckingOrPromptingOrExchanging() {
        var checking = BiometricSignIn()
        _ = checking.appLaunched(binding: Self.binding, hasStoredSession: false)
        #expect(checking.userChosePassword() == .showSignIn(Screen(biometricOption: .faceID, notice: nil)))
        #expect(checking.availabilityKnown(.available(kind: .faceID), enrollment: .usable) == .none)

        var prompting = Self.evaluating()
        #expect(prompting.userChosePassword() == .showSignIn(Screen(biometricOption: .faceID, notice: nil)))
        #expect(prompting.evaluationFinished(.success) == .none)

        var exchanging = Self.evaluating()
        _ = exchanging.evaluationFinished(.success)
        _ = exchanging.challengeReceived(Self.challenge)
        #expect(exchanging.userChosePassword() == .showSignIn(Screen(biometricOption: .faceID, notice: nil)))
        #expect(exchanging.signed(signature: "late") == .none)
        #expect(exchanging.signingFailed(.cancelled) == .none)
        #expect(exchanging.tokensReceived(Self.tokens) == .none)
    }

    // MARK: - Prompt texts (B3, A10)

    @Test("B3 issue 11: prompt texts, the cancel title included, follow the SDK language and configuration")
    func B3_promptTextsFollowLanguageAndConfiguration() {
        var chinese = BiometricSignIn(language: .zhHans)
        _ = chinese.appLaunched(binding: Self.binding, hasStoredSession: false)
        #expect(
            chinese.availabilityKnown(.available(kind: .faceID), enrollment: .usable)
                == .evaluate(
                    reason: "验证Face ID以登录您的账号", fallbackTitle: "使用密码登录", cancelTitle: "取消"))

        var hidden = BiometricSignIn(reason: "Unlock Acme", fallbackButton: .hidden)
        _ = hidden.appLaunched(binding: Self.binding, hasStoredSession: false)
        #expect(
            hidden.availabilityKnown(.available(kind: .faceID), enrollment: .usable)
                == .evaluate(
                    reason: "Unlock Acme", fallbackTitle: "", cancelTitle: "Cancel"))

        var system = BiometricSignIn(fallbackButton: .systemDefault)
        _ = system.appLaunched(binding: Self.touchBinding, hasStoredSession: false)
        #expect(
            system.availabilityKnown(.available(kind: .touchID), enrollment: .usable)
                == .evaluate(
                    reason: "Use Touch ID to sign in to your account", fallbackTitle: nil, cancelTitle: "Cancel"))
    }
}
