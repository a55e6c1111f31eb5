/// How an app reacts to a failed biometric evaluation (B2). The first five classes are the seeds';
/// the last two are this SDK's decision for the codes the seeds leave open.
public enum BiometricFailureHandling: Sendable, Hashable, CaseIterable {
    /// −2 userCancel, −4 systemCancel, −9 appCancel: do nothing — no message, no attempt counted.
    /// The screen stays as it was; a flow may treat a system cancel as an interruption (A8).
    case cancelLike
    /// −5 passcodeNotSet, −6 biometryNotAvailable (incl. this app's permission off), −7 biometryNotEnrolled:
    /// guide the user to Settings, and offer the password meanwhile.
    case settingsLike
    /// −8 biometryLockout: the unlock flow — biometry comes back once the device passcode is entered
    /// (on the Lock Screen or in a passcode prompt); offer the password meanwhile.
    case lockout
    /// −1 authenticationFailed: not recognized; show an in-app message (only Touch ID reports it; Face ID
    /// shows its own "Try Face ID Again" page first).
    case authenticationFailed
    /// −3 userFallback: the user tapped the fallback button; run the app's own fallback (password, 2FA).
    case userFallback
    /// −1004 notInteractive: the app was in the background, so no prompt could appear. Show nothing and
    /// evaluate again when the app is active; it is neither the user's failure nor a cancel.
    case retryWhenActive
    /// −10 invalidContext and every unknown code: something went wrong that the user cannot fix. Show a
    /// generic "verification failed" message (the seed's default branch), offer the other methods, and
    /// do not count it as a failed attempt. The SDK makes a fresh `LAContext` per prompt, so −10 should
    /// not occur.
    case unexpected
}
