import LatchCore

/// Every text of the registration screen (seed 004 §3.2 注册界面, §8.2 密码要求 / 密码强度检测), in
/// Simplified Chinese (the seed's wording, exactly, where it gives one) and English.
///
///     RegistrationStrings(.zhHans).strength(.medium)  // "密码强度: 中等" / "Password strength: Medium"
public struct RegistrationStrings: Sendable, Equatable {
    /// The language of every text.
    public let language: LatchLanguage

    public init(_ language: LatchLanguage) {
        self.language = language
    }

    // MARK: Details step (seed §3.2)

    /// "创建账户" / "Create Account".
    public var title: String { language.pick("创建账户", "Create Account") }
    /// "邮箱" / "Email".
    public var emailLabel: String { language.pick("邮箱", "Email") }
    /// The email placeholder (the seed's example address).
    public var emailPlaceholder: String { "user@example.com" }
    /// "密码" / "Password".
    public var passwordLabel: String { language.pick("密码", "Password") }
    /// "确认密码" / "Confirm Password".
    public var confirmPasswordLabel: String { language.pick("确认密码", "Confirm Password") }
    /// The optional nickname (seed §3.1 完善资料, complete the profile: "昵称等信息", a nickname and the like).
    public var nicknameLabel: String { language.pick("昵称（选填）", "Nickname (optional)") }
    /// The terms checkbox: "我已阅读并同意《用户协议》和《隐私政策》" /
    /// "I have read and agree to the Terms of Service and the Privacy Policy.".
    public var termsAgreement: String {
        language.pick("我已阅读并同意《用户协议》和《隐私政策》", "I have read and agree to the Terms of Service and the Privacy Policy.")
    }
    /// "《用户协议》" / "Terms of Service", the link to the terms.
    public var termsOfService: String { language.pick("《用户协议》", "Terms of Service") }
    /// "《隐私政策》" / "Privacy Policy", the link to the privacy policy.
    public var privacyPolicy: String { language.pick("《隐私政策》", "Privacy Policy") }
    /// "注册" / "Sign Up".
    public var register: String { language.pick("注册", "Sign Up") }
    /// "已有账户？" / "Already have an account?".
    public var haveAccount: String { language.pick("已有账户？", "Already have an account?") }
    /// "登录" / "Sign In".
    public var signIn: String { language.pick("登录", "Sign In") }

    /// The 👁 button: what VoiceOver says, by whether the password shows.
    public func revealPassword(_ isVisible: Bool) -> String {
        isVisible ? language.pick("隐藏密码", "Hide Password") : language.pick("显示密码", "Show Password")
    }

    /// The email does not look like an address (seed §3.1 验证邮箱格式).
    public var invalidEmail: String { language.pick("邮箱格式不正确", "Enter a valid email address.") }
    /// The confirmation differs from the password.
    public var passwordsDiffer: String { language.pick("两次输入的密码不一致", "The passwords do not match.") }

    // MARK: Strength meter and policy hints (seed §8.2)

    /// The meter's line: "密码强度: 中等" / "Password strength: Medium".
    public func strength(_ strength: PasswordStrength) -> String {
        language.pick("密码强度: ", "Password strength: ") + strength.label(in: language)
    }

    /// One password requirement (seed §8.2 密码要求).
    public func rule(_ rule: PasswordRuleHint.Rule) -> String {
        switch rule {
        case .minimumLength: language.pick("最少 8 位", "At least 8 characters")
        case .upperAndLowerCase: language.pick("包含大小写字母", "Upper- and lower-case letters")
        case .digit: language.pick("包含数字", "At least one digit")
        case .specialCharacter: language.pick("可选特殊字符", "Special characters (optional)")
        case .maximumLength: language.pick("最多 128 位", "At most 128 characters")
        case .notCommon: language.pick("不能使用常见密码", "Not a commonly used password")
        }
    }

    /// What VoiceOver adds after a hint: met, not met, or optional.
    public func ruleStatus(_ status: PasswordRuleHint.Status) -> String {
        switch status {
        case .met: language.pick("已满足", "met")
        case .unmet: language.pick("未满足", "not met")
        case .optional: language.pick("可选", "optional")
        }
    }

    // MARK: Code step (seed §3.1 发送验证码, 验证邮箱)

    /// "验证邮箱" / "Verify Your Email".
    public var codeTitle: String { language.pick("验证邮箱", "Verify Your Email") }
    /// Where the code went.
    public func codeSent(to email: String) -> String {
        language.pick("验证码已发送至 \(email)", "We sent a 6-digit code to \(email).")
    }
    /// The code field's label.
    public var codeLabel: String { language.pick("6位验证码", "6-digit code") }
    /// "验证" / "Verify".
    public var verify: String { language.pick("验证", "Verify") }
    /// "重新发送" / "Resend Code".
    public var resend: String { language.pick("重新发送", "Resend Code") }
    /// The resend button while it waits: "60秒后重新发送" / "Resend in 60 s".
    public func resendIn(_ seconds: Int) -> String {
        language.pick("\(seconds)秒后重新发送", "Resend in \(seconds) s")
    }
    /// "更换邮箱" / "Change Email": back to the details.
    public var changeEmail: String { language.pick("更换邮箱", "Change Email") }
    /// A new code went out.
    public var codeResent: String { language.pick("新的验证码已发送", "A new code is on its way.") }
    /// Tries left on the code (AUTH_003 `attempts_remaining`).
    public func attemptsRemaining(_ count: Int) -> String {
        language.pick("还可尝试\(count)次", count == 1 ? "1 attempt left." : "\(count) attempts left.")
    }
    /// The code is used up or expired (AUTH_003 with no tries left).
    public var codeUsedUp: String { language.pick("验证码已失效，请重新发送", "This code no longer works. Please send a new one.") }
    /// RATE_LIMITED before a code can go out again.
    public func waitBeforeSending(_ seconds: Int) -> String {
        language.pick("操作过于频繁，请\(seconds)秒后再试", "Please wait \(seconds) s before asking for another code.")
    }

    /// A message and its detail on one line: "验证码错误，还可尝试4次" /
    /// "The verification code is wrong or has expired. 4 attempts left.".
    public func joined(_ message: String, _ detail: String) -> String {
        message + language.pick("，", " ") + detail
    }
}
