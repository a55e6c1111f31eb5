import LatchCore

extension VerificationFlow {
    /// What the driver must do after an event. Every action that changes the page carries the new
    /// screen; the driver shows it, then does the rest.
    public enum Action: Sendable, Equatable {
        /// Show `screen` and open a verification on the server (`POST /v1/verifications`); report
        /// `serverStarted(_:)` or `serverStartFailed(_:)`.
        case startServerVerification(VerificationRequest, screen: VerificationScreen)
        /// Show `screen`; nothing runs until the user acts.
        case show(VerificationScreen)
        /// Show `screen`, a page with a live countdown (the security hold, issue 19 §2), and report
        /// `holdCountdownTicked()` one second later.
        case showCountdown(VerificationScreen)
        /// Ask the system for the Face ID permission; report `permissionPromptAnswered(granted:)`.
        case requestBiometricPermission
        /// Show `screen` and run the system biometric prompt; report `biometricFinished(_:)`.
        case evaluateBiometrics(VerificationBiometricPrompt, screen: VerificationScreen)
        /// Cancel the running biometric prompt (its late result is to be dropped) and show `screen`.
        case cancelBiometricEvaluation(thenShow: VerificationScreen)
        /// Show `screen`, sign the request's message with the device key and send it as a
        /// `biometric` attempt; report `serverAttemptSucceeded(_:)`, `serverAttemptNeedsAnotherFactor(_:)` or `serverAttemptFailed(_:)`, or
        /// `signingFailed()` when the key cannot sign.
        case submitBiometricSignature(VerificationSignatureRequest, screen: VerificationScreen)
        /// Show `screen` and send a `totp` attempt with `code`.
        case submitCode(verificationID: String, code: VerificationSecret, screen: VerificationScreen)
        /// Show `screen` and send an `email_code` attempt with `code` (issue 30 §3).
        case submitEmailCode(verificationID: String, code: VerificationSecret, screen: VerificationScreen)
        /// Show `screen` and ask the server to mail a code for the verification (issue 30 §3); report
        /// `emailCodeSent()` or `emailCodeSendFailed(_:)`.
        case sendEmailCode(verificationID: String, screen: VerificationScreen)
        /// Show `screen`, the emailed code's page while "重新发送" / "Resend Code" waits, and report
        /// `emailCodeResendAvailable()` each second until `seconds` have passed, so the label "N秒后可重新发送" /
        /// "Resend in N s" ticks down (issue 30 §3).
        case showAwaitingResend(VerificationScreen, seconds: Int)
        /// Show `screen` and send a `fund_password` attempt with `password`.
        case submitFundPassword(verificationID: String, password: VerificationSecret, screen: VerificationScreen)
        /// Show `screen` and ask the device's passkey for an assertion over `options` (the system
        /// sheet); report `passkeyAssertionFinished(_:)`.
        case getPasskeyAssertion(PublicKeyCredentialRequestOptionsJSON, screen: VerificationScreen)
        /// Show `screen` and send a `passkey` attempt with `credential`.
        case submitPasskeyAssertion(
            verificationID: String, credential: AuthenticationResponseJSON, screen: VerificationScreen)
        /// Run the device-passcode prompt (B2 −8; the page stays as it is); report
        /// `passcodeUnlockFinished(unlocked:)`.
        case unlockBiometricsWithPasscode(VerificationPasscodePrompt)
        /// Open the app's page in the system Settings (to turn the Face ID permission on, enrol a face or
        /// finger, or set a passcode).
        case openSettings
        /// Close the page, announce `announcement` and hand `result` to the caller. Anything still
        /// running (a prompt, a request, the timer) is to be cancelled and its result dropped.
        case finish(VerificationResult, announcement: VerificationAnnouncement)
        /// Nothing to do.
        case none
    }
}
