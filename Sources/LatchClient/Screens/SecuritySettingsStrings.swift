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
    public var title: String { pick("安全设置", "Security") }
    /// "正在加载…" / "Loading…".
    public var loading: String { pick("正在加载…", "Loading…") }
    /// "重试" / "Try Again" after a failed load.
    public var retry: String { pick("重试", "Try Again") }
    /// "已开启" / "On".
    public var on: String { pick("已开启", "On") }
    /// "未开启" / "Off".
    public var off: String { pick("未开启", "Off") }

    // MARK: Biometrics (seed §9)

    /// The biometric row's name: "Face ID", "Touch ID", or "生物识别" / "Biometrics" when the sensor is unknown.
    public func biometricTitle(_ kind: BiometryKind?) -> String {
        kind?.displayName ?? pick("生物识别", "Biometrics")
    }
    /// The biometric switch's label (seed 002 "点击开启“指纹登录”"): "指纹登录" / "Touch ID sign-in", "面容登录" /
    /// "Face ID sign-in"; "生物识别登录" / "Biometric sign-in" when the sensor is unknown.
    public func biometricSwitch(_ kind: BiometryKind?) -> String {
        switch kind {
        case .touchID: pick("指纹登录", "Touch ID sign-in")
        case .faceID: pick("面容登录", "Face ID sign-in")
        case .opticID: pick("Optic ID登录", "Optic ID sign-in")
        case nil: pick("生物识别登录", "Biometric sign-in")
        }
    }
    /// What the biometric switch does.
    public var biometricDetail: String { pick("用于登录和验证敏感操作", "For signing in and confirming sensitive actions.") }
    /// Why the switch cannot be turned on now.
    public func biometricUnavailable(_ reason: BiometricUnavailableReason, kind: BiometryKind?) -> String {
        let name = biometricTitle(kind)
        return switch reason {
        case .notEnrolled: pick("未设置\(name)，请在系统设置中录入", "\(name) is not set up. Set it up in Settings.")
        case .passcodeNotSet: pick("未设置设备密码，无法使用\(name)", "\(name) needs a device passcode.")
        case .notAvailable: pick("\(name)不可用，请在设置中开启", "\(name) is unavailable. Turn it on in Settings.")
        case .lockedOut: pick("\(name)已被锁定，请先输入设备密码解锁", "\(name) is locked. Unlock it with your device passcode.")
        case .notSupported: pick("此设备不支持生物识别", "This device does not support biometrics.")
        }
    }
    /// The biometric check did not pass while turning it on.
    public func biometricNotVerified(_ kind: BiometryKind?) -> String {
        pick("\(biometricTitle(kind))验证未通过，未开启", "\(biometricTitle(kind)) did not match. Nothing was changed.")
    }
    /// The switch's state for VoiceOver and the row: "Face ID登录已开启" / "Face ID sign-in is on."
    public func biometricState(_ kind: BiometryKind?, enabled: Bool) -> String {
        let name = biometricTitle(kind)
        return enabled
            ? pick("\(name)登录已开启", "\(name) sign-in is on.") : pick("\(name)登录未开启", "\(name) sign-in is off.")
    }

    // MARK: 2FA (D1)

    /// "两步验证（2FA）" / "Two-Factor Authentication".
    public var twoFactorTitle: String { pick("两步验证（2FA）", "Two-Factor Authentication") }
    /// "开启" / "Turn On".
    public var turnOn: String { pick("开启", "Turn On") }
    /// "关闭" / "Turn Off".
    public var turnOff: String { pick("关闭", "Turn Off") }
    /// The setup's first step: add the key to an authenticator app.
    public var twoFactorAddKey: String {
        pick(
            "请在身份验证器（如 Google Authenticator）中扫描二维码或手动输入以下密钥",
            "Scan the QR code with your authenticator app (such as Google Authenticator), or enter this key.")
    }
    /// The setup's second step.
    public var twoFactorEnterCode: String {
        pick("请输入身份验证器中的6位验证码", "Enter the 6-digit code from your authenticator app.")
    }
    /// "6位验证码" / "6-digit code".
    public var codeLabel: String { pick("6位验证码", "6-digit code") }
    /// "确认" / "Confirm".
    public var confirm: String { pick("确认", "Confirm") }
    /// "取消" / "Cancel".
    public var cancel: String { pick("取消", "Cancel") }
    /// The recovery codes' warning: shown once.
    public var recoveryCodesNotice: String {
        pick(
            "请妥善保存以下恢复码。每个恢复码只能使用一次，且只显示这一次。",
            "Keep these recovery codes safe. Each works once, and they are shown only now.")
    }
    /// "我已保存" / "I Saved Them".
    public var recoveryCodesSaved: String { pick("我已保存", "I Saved Them") }
    /// After turning 2FA on or off.
    public func twoFactorChanged(_ on: Bool) -> String {
        on ? pick("两步验证已开启", "Two-factor authentication is on.") : pick("两步验证已关闭", "Two-factor authentication is off.")
    }
    /// Why the verification page opens to turn 2FA off.
    public var disableTwoFactorReason: String {
        pick("验证身份以关闭两步验证", "Verify it’s you to turn off two-factor authentication.")
    }
    /// Why the verification page opens to turn 2FA on.
    public var enableTwoFactorReason: String {
        pick("验证身份以开启两步验证", "Verify it’s you to turn on two-factor authentication.")
    }

    // MARK: Fund password (D2)

    /// "资金密码" / "Fund Password".
    public var fundPasswordTitle: String { pick("资金密码", "Fund Password") }
    /// "已设置" / "Set" or "未设置" / "Not set".
    public func fundPasswordState(_ isSet: Bool) -> String { isSet ? pick("已设置", "Set") : pick("未设置", "Not set") }
    /// "设置资金密码" / "Set Fund Password".
    public var setFundPassword: String { pick("设置资金密码", "Set Fund Password") }
    /// "修改资金密码" / "Change Fund Password".
    public var changeFundPassword: String { pick("修改资金密码", "Change Fund Password") }
    /// "当前资金密码" / "Current fund password".
    public var currentFundPasswordLabel: String { pick("当前资金密码", "Current fund password") }
    /// "新资金密码" / "New fund password".
    public var newFundPasswordLabel: String { pick("新资金密码", "New fund password") }
    /// "确认资金密码" / "Confirm fund password".
    public var confirmFundPasswordLabel: String { pick("确认资金密码", "Confirm fund password") }
    /// The rule under the field.
    public var fundPasswordHint: String {
        pick("6位数字，不能是相同或连续的数字", "6 digits, not all the same and not a straight run.")
    }
    /// "保存" / "Save".
    public var save: String { pick("保存", "Save") }
    /// A broken fund-password rule.
    public func fundPasswordRule(_ violation: FundPasswordPolicy.Violation) -> String {
        switch violation {
        case .notSixDigits: pick("资金密码为6位数字", "The fund password is 6 digits.")
        case .allSame: pick("不能使用相同的数字", "Do not use the same digit six times.")
        case .straightRun: pick("不能使用连续的数字", "Do not use a straight run such as 123456.")
        case .sameAsLoginPassword: pick("资金密码不能与登录密码相同", "The fund password must differ from the login password.")
        }
    }
    /// The confirmation differs.
    public var fundPasswordsDiffer: String { pick("两次输入的资金密码不一致", "The fund passwords do not match.") }
    /// AUTH_003 for the current fund password.
    public var wrongFundPassword: String { pick("资金密码错误", "The fund password is wrong.") }
    /// After saving.
    public func fundPasswordSaved(changed: Bool) -> String {
        changed ? pick("资金密码已修改", "Fund password changed.") : pick("资金密码已设置", "Fund password set.")
    }
    /// Why the verification page opens to set the fund password.
    public var setFundPasswordReason: String { pick("验证身份以设置资金密码", "Verify it’s you to set a fund password.") }

    // MARK: Sign-in protection (seed §6.2 安全设置)

    /// "新设备登录时通知" / "Notify me of sign-ins from new devices" (always on: the server mails every new-device sign-in).
    public var notifyNewDevices: String { pick("新设备登录时通知", "Notify me of sign-ins from new devices") }
    /// Why the notification cannot be turned off.
    public var notifyNewDevicesDetail: String { pick("始终开启，通过邮件通知", "Always on, by email.") }
    /// "异常登录时强制验证" / "Verify unusual sign-ins".
    public var verifyUnusualSignIns: String { pick("异常登录时强制验证", "Verify unusual sign-ins") }
    /// What the check does.
    public var verifyUnusualSignInsDetail: String {
        pick("在新设备上登录时需输入验证码", "A sign-in from a new device needs a code.")
    }
    /// Why the verification page opens to turn the check off.
    public var disableUnusualSignInCheckReason: String {
        pick("验证身份以关闭异常登录验证", "Verify it’s you to turn off the unusual sign-in check.")
    }
    /// Why the verification page opens to turn biometric sign-in on.
    public func enableBiometricsReason(_ kind: BiometryKind?) -> String {
        pick("验证身份以开启\(biometricTitle(kind))登录", "Verify it’s you to turn on \(biometricTitle(kind)) sign-in.")
    }

    /// A message and its detail on one line.
    public func joined(_ message: String, _ detail: String) -> String {
        message + pick("，", " ") + detail
    }

    /// Tries left on the current fund password.
    public func attemptsRemaining(_ count: Int) -> String {
        pick("还可尝试\(count)次", count == 1 ? "1 attempt left." : "\(count) attempts left.")
    }

    private func pick(_ zhHans: String, _ en: String) -> String {
        switch language {
        case .zhHans: zhHans
        case .en: en
        }
    }
}
