import LatchCore

/// Every text of the security settings screen (seed 004 §6.2 安全设置, §9 生物识别; D1, D2), in
/// Simplified Chinese (the seed's wording, exactly, where it gives one) and English.
///
///     SecuritySettingsStrings(.zhHans).verifyUnusualSignIns  // "异常登录时强制验证" / "Verify unusual sign-ins"
public struct SecuritySettingsStrings: Sendable, Equatable {
    /// The language of every text.
    public let language: LatchLanguage

    public init(_ language: LatchLanguage) {
        self.language = language
    }

    /// "安全设置" / "Security".
    public var title: String { language.pick("安全设置", "Security") }
    /// "正在加载…" / "Loading…".
    public var loading: String { language.pick("正在加载…", "Loading…") }
    /// "重试" / "Try Again" after a failed load.
    public var retry: String { language.pick("重试", "Try Again") }
    /// "已开启" / "On".
    public var on: String { language.pick("已开启", "On") }
    /// "未开启" / "Off".
    public var off: String { language.pick("未开启", "Off") }

    // MARK: Biometrics (seed §9)

    /// The biometric row's name: "Face ID", "Touch ID", or "生物识别" / "Biometrics" when the sensor is unknown.
    public func biometricTitle(_ kind: BiometryKind?) -> String {
        kind?.displayName ?? language.pick("生物识别", "Biometrics")
    }
    /// The biometric switch's label (seed 002 "点击开启“指纹登录”"): "指纹登录" / "Touch ID sign-in", "面容登录" /
    /// "Face ID sign-in"; "面容或指纹登录" / "Biometric sign-in" when the sensor is unknown.
    public func biometricSwitch(_ kind: BiometryKind?) -> String {
        BiometricStrings.signInName(kind, in: language)
    }
    /// What the biometric switch does.
    public var biometricDetail: String {
        language.pick("用于登录和验证敏感操作", "For signing in and confirming sensitive actions.")
    }
    /// Why the switch cannot be turned on now.
    public func biometricUnavailable(_ reason: BiometricUnavailableReason, kind: BiometryKind?) -> String {
        let name = biometricTitle(kind)
        return switch reason {
        case .notEnrolled: language.pick("未设置\(name)，请在系统设置中录入", "\(name) is not set up. Set it up in Settings.")
        case .passcodeNotSet: language.pick("未设置设备密码，无法使用\(name)", "\(name) needs a device passcode.")
        case .notAvailable: language.pick("\(name)不可用，请在设置中开启", "\(name) is unavailable. Turn it on in Settings.")
        case .lockedOut:
            language.pick("\(name)已被锁定，请先输入设备密码解锁", "\(name) is locked. Unlock it with your device passcode.")
        case .notSupported: language.pick("此设备不支持生物识别", "This device does not support biometrics.")
        }
    }
    /// The biometric check did not pass while turning it on.
    public func biometricNotVerified(_ kind: BiometryKind?) -> String {
        language.pick("\(biometricTitle(kind))验证未通过，未开启", "\(biometricTitle(kind)) did not match. Nothing was changed.")
    }
    /// The switch's state for VoiceOver and the row: "面容登录已开启" / "Face ID sign-in is on."
    public func biometricState(_ kind: BiometryKind?, enabled: Bool) -> String {
        let name = BiometricStrings.signInName(kind, in: language)
        return enabled ? language.pick("\(name)已开启", "\(name) is on.") : language.pick("\(name)未开启", "\(name) is off.")
    }

    // MARK: 2FA (D1)

    /// "两步验证（2FA）" / "Two-Factor Authentication".
    public var twoFactorTitle: String { language.pick("两步验证（2FA）", "Two-Factor Authentication") }
    /// "开启" / "Turn On".
    public var turnOn: String { language.pick("开启", "Turn On") }
    /// "关闭" / "Turn Off".
    public var turnOff: String { language.pick("关闭", "Turn Off") }
    /// The setup's first step: add the key to an authenticator app.
    public var twoFactorAddKey: String {
        language.pick(
            "请在身份验证器（如 Google Authenticator）中扫描二维码或手动输入以下密钥",
            "Scan the QR code with your authenticator app (such as Google Authenticator), or enter this key.")
    }
    /// The setup's second step.
    public var twoFactorEnterCode: String {
        language.pick("请输入身份验证器中的6位验证码", "Enter the 6-digit code from your authenticator app.")
    }
    /// "6位验证码" / "6-digit code".
    public var codeLabel: String { language.pick("6位验证码", "6-digit code") }
    /// "确认" / "Confirm".
    public var confirm: String { language.pick("确认", "Confirm") }
    /// "取消" / "Cancel".
    public var cancel: String { language.pick("取消", "Cancel") }
    /// The recovery codes' warning: shown once.
    public var recoveryCodesNotice: String {
        language.pick(
            "请妥善保存以下恢复码。每个恢复码只能使用一次，且只显示这一次。",
            "Keep these recovery codes safe. Each works once, and they are shown only now.")
    }
    /// "我已保存" / "I Saved Them".
    public var recoveryCodesSaved: String { language.pick("我已保存", "I Saved Them") }
    /// After turning 2FA on or off.
    public func twoFactorChanged(_ on: Bool) -> String {
        on
            ? language.pick("两步验证已开启", "Two-factor authentication is on.")
            : language.pick("两步验证已关闭", "Two-factor authentication is off.")
    }
    /// Why the verification page opens to turn 2FA off.
    public var disableTwoFactorReason: String {
        language.pick("验证身份以关闭两步验证", "Verify it’s you to turn off two-factor authentication.")
    }
    /// Why the verification page opens to turn 2FA on.
    public var enableTwoFactorReason: String {
        language.pick("验证身份以开启两步验证", "Verify it’s you to turn on two-factor authentication.")
    }

    // MARK: Fund password (D2)

    /// "资金密码" / "Fund Password".
    public var fundPasswordTitle: String { language.pick("资金密码", "Fund Password") }
    /// "已设置" / "Set" or "未设置" / "Not set".
    public func fundPasswordState(_ isSet: Bool) -> String {
        isSet ? language.pick("已设置", "Set") : language.pick("未设置", "Not set")
    }
    /// "设置资金密码" / "Set Fund Password".
    public var setFundPassword: String { language.pick("设置资金密码", "Set Fund Password") }
    /// "修改资金密码" / "Change Fund Password".
    public var changeFundPassword: String { language.pick("修改资金密码", "Change Fund Password") }
    /// "当前资金密码" / "Current fund password".
    public var currentFundPasswordLabel: String { language.pick("当前资金密码", "Current fund password") }
    /// "新资金密码" / "New fund password".
    public var newFundPasswordLabel: String { language.pick("新资金密码", "New fund password") }
    /// "确认资金密码" / "Confirm fund password".
    public var confirmFundPasswordLabel: String { language.pick("确认资金密码", "Confirm fund password") }
    /// The rule under the field.
    public var fundPasswordHint: String {
        language.pick("6位数字，不能是相同或连续的数字", "6 digits, not all the same and not a straight run.")
    }
    /// "保存" / "Save".
    public var save: String { language.pick("保存", "Save") }
    /// A broken fund-password rule.
    public func fundPasswordRule(_ violation: FundPasswordPolicy.Violation) -> String {
        switch violation {
        case .notSixDigits: language.pick("资金密码为6位数字", "The fund password is 6 digits.")
        case .allSame: language.pick("不能使用相同的数字", "Do not use the same digit six times.")
        case .straightRun: language.pick("不能使用连续的数字", "Do not use a straight run such as 123456.")
        case .sameAsLoginPassword:
            language.pick("资金密码不能与登录密码相同", "The fund password must differ from the login password.")
        }
    }
    /// The confirmation differs.
    public var fundPasswordsDiffer: String { language.pick("两次输入的资金密码不一致", "The fund passwords do not match.") }
    /// AUTH_003 for the current fund password.
    public var wrongFundPassword: String { language.pick("资金密码错误", "The fund password is wrong.") }
    /// After saving.
    public func fundPasswordSaved(changed: Bool) -> String {
        changed ? language.pick("资金密码已修改", "Fund password changed.") : language.pick("资金密码已设置", "Fund password set.")
    }
    /// Why the verification page opens to set the fund password.
    public var setFundPasswordReason: String { language.pick("验证身份以设置资金密码", "Verify it’s you to set a fund password.") }

    // MARK: Sign-in protection (seed §6.2 安全设置)

    /// "新设备登录时通知" / "Notify me of sign-ins from new devices" (seed §6.2; a switch, on by default).
    public var notifyNewDevices: String { language.pick("新设备登录时通知", "Notify me of sign-ins from new devices") }
    /// What the notice does.
    public var notifyNewDevicesDetail: String {
        language.pick("有新设备登录时发送邮件通知", "We email you when a new device signs in.")
    }
    /// Why the verification page opens to turn the notice off.
    public var disableNewDeviceNoticeReason: String {
        language.pick("验证身份以关闭新设备登录通知", "Verify it’s you to turn off new-device sign-in notices.")
    }
    /// "异常登录时强制验证" / "Verify unusual sign-ins".
    public var verifyUnusualSignIns: String { language.pick("异常登录时强制验证", "Verify unusual sign-ins") }
    /// What the check does.
    public var verifyUnusualSignInsDetail: String {
        language.pick("在新设备上登录时需输入验证码", "A sign-in from a new device needs a code.")
    }
    /// Why the verification page opens to turn the check off.
    public var disableUnusualSignInCheckReason: String {
        language.pick("验证身份以关闭异常登录验证", "Verify it’s you to turn off the unusual sign-in check.")
    }
    /// Why the verification page opens to turn biometric sign-in on.
    public func enableBiometricsReason(_ kind: BiometryKind?) -> String {
        language.pick(
            "验证身份以开启\(BiometricStrings.signInName(kind, in: .zhHans))",
            "Verify it’s you to turn on \(biometricTitle(kind)) sign-in.")
    }

    /// A message and its detail on one line.
    public func joined(_ message: String, _ detail: String) -> String {
        message + language.pick("，", " ") + detail
    }

    /// Tries left on the current fund password.
    public func attemptsRemaining(_ count: Int) -> String {
        language.pick("还可尝试\(count)次", count == 1 ? "1 attempt left." : "\(count) attempts left.")
    }
}
