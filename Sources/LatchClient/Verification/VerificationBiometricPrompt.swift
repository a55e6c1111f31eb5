import LatchCore

/// What the system biometric prompt shows (B3): its reason line and button titles.
public struct VerificationBiometricPrompt: Sendable, Equatable {
    /// The sensor to evaluate.
    public var sensor: BiometryKind
    /// `LAContext.evaluatePolicy`'s `localizedReason`: the caller's operation description, or the
    /// page text ("使用面容ID进行验证" / "Use Face ID to verify.").
    public var localizedReason: String
    /// `LAContext.localizedFallbackTitle`: "使用密码验证" / "Use Password" (or "使用其他方式验证" / "Use Another Method"
    /// without a fund
    /// password); empty hides the button when there is nothing to fall back to.
    public var fallbackTitle: String
    /// `LAContext.localizedCancelTitle`: "取消" / "Cancel".
    public var cancelTitle: String

    public init(sensor: BiometryKind, localizedReason: String, fallbackTitle: String, cancelTitle: String) {
        self.sensor = sensor
        self.localizedReason = localizedReason
        self.fallbackTitle = fallbackTitle
        self.cancelTitle = cancelTitle
    }
}
