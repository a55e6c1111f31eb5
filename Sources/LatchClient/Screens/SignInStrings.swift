import Foundation
import LatchCore

/// Every text of the sign-in screen (seed 004 §2 登录方式, §10 错误处理), in Simplified Chinese (the
/// seed's wording where it gives one) and English.
///
///     SignInStrings(.zhHans).emailTab  // "邮箱登录" / "Email"
public struct SignInStrings: Sendable, Equatable {
    /// The language of every text.
    public let language: LatchLanguage

    public init(_ language: LatchLanguage) {
        self.language = language
    }

    /// "登录" / "Sign In".
    public var title: String { language.pick("登录", "Sign In") }
    /// "邮箱登录" / "Email" (seed §2.1).
    public var emailTab: String { language.pick("邮箱登录", "Email") }
    /// "手机号登录" / "Phone" (seed §2.1).
    public var phoneTab: String { language.pick("手机号登录", "Phone") }
    /// "邮箱" / "Email".
    public var emailLabel: String { language.pick("邮箱", "Email") }
    /// "密码" / "Password".
    public var passwordLabel: String { language.pick("密码", "Password") }
    /// "手机号" / "Phone Number".
    public var phoneLabel: String { language.pick("手机号", "Phone Number") }
    /// "验证码" / "Code".
    public var codeLabel: String { language.pick("验证码", "Code") }
    /// "登录" / "Sign In": the form's button.
    public var signIn: String { language.pick("登录", "Sign In") }
    /// "忘记密码？" / "Forgot Password?".
    public var forgotPassword: String { language.pick("忘记密码？", "Forgot Password?") }
    /// "没有账户？" / "No account yet?" (seed §10.1 账号不存在 → 引导注册, offered to everyone so that nothing is revealed).
    public var noAccount: String { language.pick("没有账户？", "No account yet?") }
    /// "注册" / "Sign Up".
    public var register: String { language.pick("注册", "Sign Up") }
    /// "其他登录方式" / "Other ways to sign in".
    public var otherMethods: String { language.pick("其他登录方式", "Other ways to sign in") }

    /// The 👁 button: what VoiceOver says, by whether the password shows.
    public func revealPassword(_ isVisible: Bool) -> String {
        isVisible ? language.pick("隐藏密码", "Hide Password") : language.pick("显示密码", "Show Password")
    }

    /// A button under the form: "通过Apple登录" / "Sign in with Apple", "微信登录" / "Sign in with WeChat",
    /// "面容登录" / "Sign in with Face ID".
    public func title(for method: ExternalSignInMethod) -> String {
        switch method {
        case .apple: language.pick("通过Apple登录", "Sign in with Apple")
        case .weChat: language.pick("微信登录", "Sign in with WeChat")
        case .biometrics(let kind): BiometricStrings.signIn(with: kind, in: language)
        }
    }

    // MARK: Phone + SMS code

    /// "获取验证码" / "Send Code".
    public var sendCode: String { language.pick("获取验证码", "Send Code") }
    /// The send button while it waits: "60秒后重新获取" / "Resend in 60 s".
    public func resendIn(_ seconds: Int) -> String { language.pick("\(seconds)秒后重新获取", "Resend in \(seconds) s") }
    /// "验证码已发送" / "Code sent.".
    public var codeSent: String { language.pick("验证码已发送", "Code sent.") }
    /// The typed number is not one.
    public var invalidPhone: String { language.pick("手机号格式不正确", "Enter a valid phone number.") }
    /// The typed email is not an address.
    public var invalidEmail: String { language.pick("邮箱格式不正确", "Enter a valid email address.") }

    // MARK: Unusual sign-in (C8)

    /// The code step's title: "验证身份" / "Verify It’s You".
    public var challengeTitle: String { language.pick("验证身份", "Verify It’s You") }
    /// Why a code is asked for, and where it is.
    public func challengePrompt(_ method: SignInChallenge.Method) -> String {
        switch method {
        case .email: language.pick("检测到新设备登录，请输入发送至邮箱的6位验证码", "New device: enter the 6-digit code we emailed you.")
        case .totp:
            language.pick("检测到新设备登录，请输入身份验证器中的6位验证码", "New device: enter the 6-digit code from your authenticator app.")
        case .other: language.pick("检测到新设备登录，请输入6位验证码", "New device: enter the 6-digit code.")
        }
    }
    /// "验证" / "Verify".
    public var verify: String { language.pick("验证", "Verify") }
    /// "返回" / "Back": back to the form.
    public var back: String { language.pick("返回", "Back") }

    // MARK: Errors (seed §10)

    /// Tries left before the lock (seed §10.1 密码错误 → 提示错误次数).
    public func attemptsRemaining(_ count: Int) -> String {
        language.pick("还可尝试\(count)次", count == 1 ? "1 attempt left." : "\(count) attempts left.")
    }

    /// The lock's end (seed §10.1 账号被锁定 → 显示解锁时间): "将于10:35解锁，剩余04:59" / "Unlocks at 10:35 (04:59 left)."
    public func unlocksAt(_ time: String, countdown: String) -> String {
        language.pick("将于\(time)解锁，剩余\(countdown)", "Unlocks at \(time) (\(countdown) left).")
    }

    /// A message and its detail on one line.
    public func joined(_ message: String, _ detail: String) -> String {
        message + language.pick("，", " ") + detail
    }

    /// RATE_LIMITED before another text can go out.
    public func waitBeforeSending(_ seconds: Int) -> String {
        language.pick("操作过于频繁，请\(seconds)秒后再试", "Please wait \(seconds) s before asking for another code.")
    }

    /// "HH:mm" of `date` in `timeZone`.
    public func clockTime(_ date: Date, in timeZone: TimeZone) -> String {
        VerificationStrings(language).clockTime(date, in: timeZone)
    }
}
