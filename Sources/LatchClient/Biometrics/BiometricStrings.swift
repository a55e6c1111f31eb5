import LatchCore

/// Labels of the biometric sign-in and enabling screens, in zh-Hans and English.
public enum BiometricStrings {
    /// The button and prompt title: "面容登录" / "Sign in with Face ID" ("指纹登录" / "Sign in with Touch ID").
    public static func signIn(with kind: BiometryKind, in language: LatchLanguage) -> String {
        switch language {
        case .zhHans: kind.chineseSignInName
        case .en: "Sign in with \(kind.displayName)"
        }
    }

    /// Biometric sign-in's name (issue 28 §3: one name in Chinese, seed 002's): "面容登录" / "Face ID sign-in",
    /// "指纹登录" / "Touch ID sign-in"; "面容或指纹登录" / "Biometric sign-in" when the sensor is unknown.
    public static func signInName(_ kind: BiometryKind?, in language: LatchLanguage) -> String {
        switch (kind, language) {
        case (let kind?, .zhHans): kind.chineseSignInName
        case (let kind?, .en): "\(kind.displayName) sign-in"
        case (nil, .zhHans): "面容或指纹登录"
        case (nil, .en): "Biometric sign-in"
        }
    }

    /// The always-offered password sign-in (C12): "使用密码登录" / "Sign in with password".
    public static func signInWithPassword(in language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "使用密码登录"
        case .en: "Sign in with password"
        }
    }

    /// The settings toggle: "开启面容登录" / "Turn on Face ID sign-in".
    public static func enable(_ kind: BiometryKind, in language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "开启\(kind.chineseSignInName)"
        case .en: "Turn on \(kind.displayName) sign-in"
        }
    }

    /// The sign-in screen's button after a lockout: "输入设备密码解锁指纹" / "Unlock Touch ID with Passcode".
    public static func unlockWithPasscode(_ kind: BiometryKind, in language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "输入设备密码解锁\(kind.chineseName)"
        case .en: "Unlock \(kind.displayName) with Passcode"
        }
    }

    /// The device-passcode prompt's reason: "输入设备密码以解锁指纹" / "Enter your passcode to unlock Touch ID.".
    public static func passcodeReason(_ kind: BiometryKind, in language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "输入设备密码以解锁\(kind.chineseName)"
        case .en: "Enter your passcode to unlock \(kind.displayName)."
        }
    }

    /// The system prompt's cancel button (`localizedCancelTitle`): "取消" / "Cancel".
    public static func cancel(in language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "取消"
        case .en: "Cancel"
        }
    }

    /// The button to the system Settings: "去设置" / "Open Settings".
    public static func openSettings(in language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "去设置"
        case .en: "Open Settings"
        }
    }

    /// The reason shown in the prompt when signing in (Touch ID shows it; Face ID after a failure):
    /// "验证指纹以登录您的账号" / "Use Touch ID to sign in to your account".
    public static func signInReason(with kind: BiometryKind, in language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "验证\(kind.chineseName)以登录您的账号"
        case .en: "Use \(kind.displayName) to sign in to your account"
        }
    }

    /// The reason shown in the prompt when turning biometric sign-in on: "验证Face ID以开启面容登录" /
    /// "Verify Face ID to turn on Face ID sign-in".
    public static func enableReason(with kind: BiometryKind, in language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "验证\(kind.chineseName)以开启\(kind.chineseSignInName)"
        case .en: "Verify \(kind.displayName) to turn on \(kind.displayName) sign-in"
        }
    }
}
