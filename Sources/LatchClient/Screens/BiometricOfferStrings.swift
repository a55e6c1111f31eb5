import LatchCore

/// The texts of the biometric offer after sign-in (seed 004 §9.2 "提示启用生物识别"), in Simplified Chinese
/// and English. Touch ID is "指纹" in Chinese sentences, as seed 001 writes it.
public struct BiometricOfferStrings: Sendable, Equatable {
    public let language: LatchLanguage

    public init(_ language: LatchLanguage) {
        self.language = language
    }

    /// "启用面容登录？" / "Turn on Face ID sign-in?" ("启用指纹登录？" / "Turn on Touch ID sign-in?").
    public func title(_ kind: BiometryKind) -> String {
        language.pick("启用\(Self.chineseSignIn(kind))？", "Turn on \(kind.displayName) sign-in?")
    }

    /// What it gives: "下次可使用面容快速登录，无需输入密码" / "Next time, sign in with Face ID instead of your password.".
    public func message(_ kind: BiometryKind) -> String {
        language.pick(
            "下次可使用\(Self.chineseSensor(kind))快速登录，无需输入密码",
            "Next time, sign in with \(kind.displayName) instead of your password.")
    }

    /// "启用" / "Turn On".
    public var accept: String { language.pick("启用", "Turn On") }
    /// "暂不" / "Not Now": remembered, not offered again.
    public var notNow: String { language.pick("暂不", "Not Now") }
    /// What "启用" / "Turn On" does, for VoiceOver.
    public func acceptHint(_ kind: BiometryKind) -> String {
        language.pick(
            "验证\(Self.chineseSensor(kind))并在此设备上开启登录", "Checks \(kind.displayName) and turns on sign-in on this device."
        )
    }
    /// What "暂不" / "Not Now" does, for VoiceOver.
    public var notNowHint: String {
        language.pick("不再提示，可稍后在安全设置中开启", "Will not ask again. You can turn it on later in Security settings.")
    }
    /// After the binding: "面容登录已开启" / "Face ID sign-in is on.".
    public func enabled(_ kind: BiometryKind) -> String {
        language.pick("\(Self.chineseSignIn(kind))已开启", "\(kind.displayName) sign-in is on.")
    }

    /// "面容登录", "指纹登录" (seed 002's switch names; the one name, issue 28 §3).
    static func chineseSignIn(_ kind: BiometryKind) -> String { kind.chineseSignInName }

    /// "面容", "指纹", "Optic ID".
    static func chineseSensor(_ kind: BiometryKind) -> String {
        switch kind {
        case .faceID: "面容"
        case .touchID: "指纹"
        case .opticID: "Optic ID"
        }
    }
}
