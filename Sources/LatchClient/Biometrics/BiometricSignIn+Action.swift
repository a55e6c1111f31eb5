import LatchCore

extension BiometricSignIn {
    /// What the driver does next.
    public enum Action: Sendable, Equatable {
        /// Nothing now.
        case none
        /// Ask `availability()` and compare `domainState()` with the kept one, then call `availabilityKnown`.
        case checkAvailability
        /// Show the biometric prompt (its Cancel titled in the SDK's language), then call `evaluationFinished`.
        case evaluate(reason: String, fallbackTitle: String?, cancelTitle: String)
        /// Ask the server for a login challenge, then call `challengeReceived` or `serverRejected`.
        case requestChallenge(credentialID: String)
        /// Sign `message` with the device key, then call `signed` or `signingFailed`.
        case sign(SignedMessage)
        /// Exchange the signature for tokens, then call `tokensReceived` or `serverRejected`.
        case exchange(challengeID: String, signature: String)
        /// Delete the device key and the kept binding (`BiometricEnrollmentStore.forget()`) — not the
        /// session — then call `bindingForgotten`.
        case forgetBinding
        /// Show the sign-in screen; the flow rests until the user taps the biometric option.
        case showSignIn(SignInScreen)
        /// Run the device-passcode prompt (after a lockout), then call `passcodeUnlockFinished(unlocked:)`.
        case unlockWithPasscode(reason: String, cancelTitle: String)
        /// Done: the app is entered.
        case finish(Outcome)
    }

    /// How the flow ended.
    public enum Outcome: Sendable, Equatable {
        /// Signed in with the device key; store these tokens.
        case signedIn(TokenResponse)
        /// Enter the app with the stored session (after a match, when biometric login is enabled).
        case useStoredSession
    }

    /// The sign-in screen's biometric part.
    public struct SignInScreen: Sendable, Hashable {
        /// The sensor of the "Sign in with Face ID" option, or `nil` for no such option (no binding,
        /// biometrics unavailable or locked out, binding just turned off).
        public var biometricOption: BiometryKind?
        /// A message to show, if any.
        public var notice: BiometricNotice?
        /// After a lockout: "输入设备密码解锁指纹" / "Unlock Touch ID with Passcode" is offered (seed 003 §5.3.2);
        /// a tap is `userTappedUnlockWithPasscode()`.
        public var offersPasscodeUnlock: Bool
        /// Password sign-in is always offered (C12).
        public var offersPassword: Bool { true }

        public init(biometricOption: BiometryKind?, notice: BiometricNotice?, offersPasscodeUnlock: Bool = false) {
            self.biometricOption = biometricOption
            self.notice = notice
            self.offersPasscodeUnlock = offersPasscodeUnlock
        }
    }
}
