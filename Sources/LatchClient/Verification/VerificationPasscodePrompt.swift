import LatchCore

/// What the device-passcode prompt shows (policy `deviceOwnerAuthentication`), asked after a lockout
/// (B2 −8) to unlock biometry again.
public struct VerificationPasscodePrompt: Sendable, Equatable {
    /// The locked sensor.
    public var sensor: BiometryKind
    /// `LAContext.evaluatePolicy`'s `localizedReason`: "输入设备密码以解锁Face ID" / "Enter your passcode to unlock Face ID.".
    public var localizedReason: String
    /// `LAContext.localizedCancelTitle`: "取消" / "Cancel" in the SDK's language.
    public var cancelTitle: String

    public init(sensor: BiometryKind, localizedReason: String, cancelTitle: String) {
        self.sensor = sensor
        self.localizedReason = localizedReason
        self.cancelTitle = cancelTitle
    }
}
