/// Why a device key could not be created, read or used.
public enum DeviceKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There is no device key: biometric login is not enabled on this device.
    case noKey
    /// The key store cannot be read now (the device is locked); try again later. Nothing is lost.
    case unavailable
    /// The key exists but can never be used again: the stored key is damaged, or the Secure Enclave
    /// invalidated it because the enrolled faces or fingers changed (`.biometryCurrentSet`). Disable
    /// biometric login and ask the user to enable it again (B4).
    case unusable
    /// The user cancelled the biometric prompt the Secure Enclave showed for signing.
    case cancelled
    /// The biometric prompt the Secure Enclave showed for signing did not match.
    case authenticationFailed
    /// Any other platform failure (an `OSStatus` or `CFError` code).
    case platform(code: Int)

    /// A stable code for logs and support.
    public var code: String {
        switch self {
        case .noKey: "device_key_missing"
        case .unavailable: "device_key_unavailable"
        case .unusable: "device_key_unusable"
        case .cancelled: "device_key_cancelled"
        case .authenticationFailed: "device_key_authentication_failed"
        case .platform: "device_key_platform_error"
        }
    }

    public var description: String {
        switch self {
        case .noKey: "no device key on this device"
        case .unavailable: "the device key store cannot be read now (device locked?)"
        case .unusable: "the device key can no longer be used (damaged, or biometric enrollment changed)"
        case .cancelled: "the biometric prompt for the device key was cancelled"
        case .authenticationFailed: "the biometric prompt for the device key did not match"
        case .platform(let code): "device key operation failed with platform code \(code)"
        }
    }
}
