import LatchCore

/// What the security settings screen shows (seed 004 §6.2 安全设置, §9; D1, D2, C8).
public struct SecurityStatus: Sendable, Equatable {
    /// The device's sensor, for the row's name ("Face ID", "Touch ID"); `nil` when unknown.
    public var biometry: BiometryKind?
    /// Why biometric sign-in cannot be turned on now (`nil`: it can).
    public var biometricUnavailable: BiometricUnavailableReason?
    /// Biometric sign-in and verification are on for this device.
    public var biometricSignInEnabled: Bool
    /// 2FA (an authenticator app) is on.
    public var twoFactorEnabled: Bool
    /// A fund password is set.
    public var fundPasswordSet: Bool
    /// "异常登录时强制验证" / "Verify unusual sign-ins" (`verify_unusual_sign_ins`).
    public var verifyUnusualSignIns: Bool
    /// "新设备登录时通知" / "Notify me of sign-ins from new devices" (`notify_new_devices`, on by default).
    public var notifyNewDevices: Bool

    public init(
        biometry: BiometryKind?, biometricUnavailable: BiometricUnavailableReason? = nil, biometricSignInEnabled: Bool,
        twoFactorEnabled: Bool, fundPasswordSet: Bool, verifyUnusualSignIns: Bool, notifyNewDevices: Bool = true
    ) {
        self.biometry = biometry
        self.biometricUnavailable = biometricUnavailable
        self.biometricSignInEnabled = biometricSignInEnabled
        self.twoFactorEnabled = twoFactorEnabled
        self.fundPasswordSet = fundPasswordSet
        self.verifyUnusualSignIns = verifyUnusualSignIns
        self.notifyNewDevices = notifyNewDevices
    }
}
