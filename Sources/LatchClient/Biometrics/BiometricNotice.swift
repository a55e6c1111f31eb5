import LatchCore

/// A message about biometrics for the user, in zh-Hans (the seeds' wording where they give it) and
/// English. Sensor names: Chinese sentences say "指纹" for Touch ID (as seed 001 does) and "Face ID" /
/// "Optic ID" for the others (as seed 000 does); English uses the product names.
///
///     BiometricNotice.notRecognized(.touchID).text(in: .zhHans)   // "指纹验证失败" / "Touch ID didn't recognize you. Try again."
///     BiometricNotice.notRecognized(.faceID).text(in: .en)        // "Face ID didn't recognize you. Try again."
public enum BiometricNotice: Sendable, Hashable {
    /// −1: no match.
    case notRecognized(BiometryKind)
    /// −2/−4/−9: the prompt was cancelled (for announcements; cancel-like failures show nothing).
    case cancelled(BiometryKind)
    /// −5: no device passcode.
    case passcodeNotSet(BiometryKind)
    /// −7: nothing enrolled.
    case notEnrolled(BiometryKind)
    /// −6 from a prompt: the sensor cannot be used, or this app's permission is off ("设备指纹不可用", seed 001's
    /// evaluatePolicy `LAErrorTouchIDNotAvailable`).
    case notAvailable(BiometryKind)
    /// The capability check (`canEvaluatePolicy`) found the sensor unusable for a reason it does not name
    /// further: "指纹不可用", seed 001's default case (issue 23 §1), as distinct from ``notAvailable(_:)``.
    case unavailable(BiometryKind)
    /// No sensor, or an OS too old for it.
    case notSupported
    /// −8: locked after too many failures.
    case lockedOut(BiometryKind)
    /// B4: the enrolled faces or fingers changed; biometric login was turned off.
    case enrollmentChanged(BiometryKind)
    /// The server no longer knows this device's credential; biometric login was turned off.
    case bindingRemoved(BiometryKind)
    /// −10 and unknown codes, or a signing failure: a generic failure.
    case failed(BiometryKind)
    /// The server could not be reached.
    case networkError
    /// The server's own message (already in the request's language).
    case server(String)

    /// The notice for `reason` (B1), when biometrics are unavailable.
    public static func unavailable(_ reason: BiometricUnavailableReason, kind: BiometryKind) -> BiometricNotice {
        switch reason {
        case .notEnrolled: .notEnrolled(kind)
        case .passcodeNotSet: .passcodeNotSet(kind)
        case .notAvailable: .unavailable(kind)
        case .lockedOut: .lockedOut(kind)
        case .notSupported: .notSupported
        }
    }

    /// Whether the notice should offer a button to the system Settings (B2's settings-like class).
    public var suggestsSettings: Bool {
        switch self {
        case .passcodeNotSet, .notEnrolled, .notAvailable, .unavailable: true
        case .notRecognized, .cancelled, .notSupported, .lockedOut, .enrollmentChanged, .bindingRemoved, .failed,
            .networkError, .server:
            false
        }
    }

    /// The text in `language`.
    public func text(in language: LatchLanguage) -> String {
        switch (self, language) {
        case (.notRecognized(let kind), .zhHans): "\(kind.chineseName)验证失败"
        case (.notRecognized(let kind), .en): "\(kind.displayName) didn't recognize you. Try again."
        case (.cancelled(let kind), .zhHans): "\(kind.chineseName)验证取消"
        case (.cancelled(let kind), .en): "\(kind.displayName) verification was cancelled."
        case (.passcodeNotSet, .zhHans): "系统未设置密码"
        case (.passcodeNotSet(let kind), .en): "Set a device passcode in Settings to use \(kind.displayName)."
        case (.notEnrolled(let kind), .zhHans): "\(kind.chineseName)未录入或系统未设置密码"
        case (.notEnrolled(let kind), .en): "\(kind.displayName) is not set up. Set it up in Settings."
        case (.notAvailable(let kind), .zhHans): "设备\(kind.chineseName)不可用"
        case (.notAvailable(let kind), .en): "\(kind.displayName) is not available. Allow it for this app in Settings."
        case (.unavailable(let kind), .zhHans): "\(kind.chineseName)不可用"
        case (.unavailable(let kind), .en): "\(kind.displayName) can't be used right now. Check it in Settings."
        case (.notSupported, .zhHans): "此设备不支持生物识别"
        case (.notSupported, .en): "This device does not support Face ID or Touch ID."
        case (.lockedOut(let kind), .zhHans): "\(kind.chineseName)尝试次数过多已被锁定，请输入系统密码解锁"
        case (.lockedOut(let kind), .en):
            "\(kind.displayName) is locked after too many attempts. Enter your device passcode to unlock it."
        case (.enrollmentChanged(let kind), .zhHans): "\(kind.chineseName)信息已变更，请使用密码登录后重新开启\(kind.chineseSignInName)"
        case (.enrollmentChanged(let kind), .en):
            "Your \(kind.displayName) settings have changed. Sign in with your password, then turn on \(kind.displayName) sign-in again."
        case (.bindingRemoved(let kind), .zhHans): "此设备的\(kind.chineseSignInName)已失效，请使用密码登录"
        case (.bindingRemoved(let kind), .en):
            "\(kind.displayName) sign-in is no longer set up for this device. Sign in with your password."
        case (.failed(let kind), .zhHans): "\(kind.chineseName)验证失败"
        case (.failed(let kind), .en): "\(kind.displayName) verification failed."
        case (.networkError, .zhHans): "网络连接失败，请重试"
        case (.networkError, .en): "Couldn't reach the server. Please try again."
        case (.server(let message), _): message
        }
    }
}

extension BiometricNotice {
    /// The notice for a failure code that makes biometrics unusable (settings-like and lockout, B2);
    /// `nil` for the others.
    public init?(failure code: BiometricErrorCode, kind: BiometryKind) {
        self.init(unusable: BiometricOutcome(BiometricFailure(code: code), kind: kind), kind: kind)
    }

    /// The notice for an outcome that makes biometrics unusable (settings-like and lockout, B2); `nil`
    /// for the others.
    public init?(unusable outcome: BiometricOutcome, kind: BiometryKind) {
        switch outcome {
        case .passcodeNotSet: self = .passcodeNotSet(kind)
        case .notAvailable, .permissionDenied: self = .notAvailable(kind)
        case .notEnrolled: self = .notEnrolled(kind)
        case .lockout, .failedThenLockedOut: self = .lockedOut(kind)
        case .success, .failed, .failedThenCancelled, .userCancel, .systemCancel, .appCancel, .userFallback,
            .notInteractive,
            .unexpected:
            return nil
        }
    }
}
