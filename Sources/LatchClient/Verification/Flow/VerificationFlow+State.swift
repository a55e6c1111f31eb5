import Foundation

extension VerificationFlow {
    /// Where the flow is. Outside `active` no verification can be answered, and only what outlives a
    /// verification is kept (the biometric standing, carried to the next one); inside it, the open
    /// verification (`Session`) and the method page on screen (`Page`).
    enum State {
        /// Created; `start()` has not been called.
        case initial
        /// Waiting for the server to open a verification.
        case starting(CarriedBiometrics)
        /// Opening the verification failed; "再试一次" / "Try Again" asks again.
        case startFailed(CarriedBiometrics)
        /// A verification is open and `Page` asks for one of its methods.
        case active(Session, Page)
        /// The verification timed out, was used up or invalidated; "重新验证" / "Start Again" opens a new one.
        case expired(CarriedBiometrics, ExpiryReason)
        /// A security hold refuses the action (issue 19 §2): the hold page with its live countdown, until
        /// "关闭" / "Close"; when the hold ends, the page offers "重新验证" / "Start Again".
        case held(CarriedBiometrics, VerificationHold)
        /// A policy limit refuses the action (POLICY_LIMIT, issue 30): the limit page (what, the limit, what is
        /// left), until "关闭" / "Close".
        case policyLimited(VerificationPolicyLimit)
        /// A new value of the action is locked (NEW_VALUE_LOCKED, issue 30): the page with its live countdown,
        /// until "关闭" / "Close"; when the lock ends, the page offers "重新验证" / "Start Again".
        case newValueLocked(CarriedBiometrics, VerificationNewValueLock)
        /// The page is closed (passed, cancelled or failed); later events are ignored.
        case finished
    }

    /// The method page of an open verification. Each page's transitions live in its own file
    /// (`VerificationFlow+BiometricPage.swift`, `+SecretPage`, `+PasskeyPage`, `+NoMethodLeftPage`).
    enum Page: Equatable {
        /// Face ID / Touch ID (A1, A3, A6, A8).
        case biometric(BiometricPhase)
        /// A code page: the 2FA code or the fund password (A3, A5, A7).
        case secret(SecretMethod, SecretPhase)
        /// The device's passkey (issue 13).
        case passkey(PasskeyPhase)
        /// No method is left to try; only "取消" / "Cancel" (and, after a lockout, the passcode; or Settings).
        case noMethodLeft(Notice?, NoMethodLeftPhase)
        /// A factor passed and the policy needs another (issue 30 §3): which passed, why another is needed,
        /// and "继续" / "Continue" to the methods still open (`VerificationProgress.methods`).
        case factorPassed(VerificationProgress)
    }

    /// Where the biometric page is.
    enum BiometricPhase: Equatable {
        /// First Face ID use: the explanation is on screen, waiting for "继续" / "Continue" (A6).
        case explainingPermission
        /// The system's Face ID permission prompt is up.
        case requestingPermission
        /// The Face ID permission is off: the denial message with "使用密码验证" / "Use Password" (A6).
        /// Biometrics are closed here; every other phase has them open with a route.
        case permissionDenied
        /// The system biometric prompt is up.
        case evaluating
        /// A biometric attempt failed or was interrupted; "再试一次" / "Try Again" evaluates again.
        case awaitingRetry(RetryReason)
        /// Biometrics passed on the device; the signed challenge is with the server.
        case submittingSignature
    }

    /// Where a code page is.
    enum SecretPhase: Equatable {
        /// Waiting for input, with an optional notice.
        case entering(Notice?)
        /// The code or fund password is with the server.
        case submitting
        /// The emailed code's page asked the server to mail a code (issue 30 §3).
        case sendingEmailCode
        /// Biometry is locked out and the device-passcode prompt is up over the page (B2 −8); the page
        /// with `Notice` is shown again when the passcode is not entered.
        case unlockingBiometrics(Notice?)
    }

    /// Where the passkey page is.
    enum PasskeyPhase: Equatable {
        /// Waiting for "使用通行密钥验证" after a cancelled, failed or refused attempt.
        case waiting(PasskeyNotice)
        /// The system passkey sheet is up.
        case asserting
        /// The assertion is with the server.
        case submitting
    }

    /// Where the page with no method left is.
    enum NoMethodLeftPhase: Equatable {
        /// Waiting for "取消" / "Cancel", the passcode (after a lockout) or Settings.
        case waiting
        /// Biometry is locked out and the device-passcode prompt is up over the page (B2 −8).
        case unlockingBiometrics
    }
}
