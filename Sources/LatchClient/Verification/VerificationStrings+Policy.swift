import Foundation
import LatchCore

// The texts of the policy's pages (issue 30 §3), in Simplified Chinese and English: the second factor,
// the emailed code, the limit and the locked new value.
extension VerificationStrings {
    // MARK: Two factors

    /// What the policy asks for, on every page of the verification: "需要两项验证" / "Two verifications are
    /// needed.", then the policy's reason as the server worded it; `nil` when one verification is enough.
    public func requirement(factors: Int, reason: String?) -> String? {
        guard factors > 1 else { return nil }
        let count =
            factors == 2
            ? language.pick("需要两项验证", "Two verifications are needed.")
            : language.pick("需要\(factors)项验证", "\(factors) verifications are needed.")
        guard let reason, !reason.isEmpty else { return count }
        return language.pick("\(count)：\(reason)", "\(count) \(reason)")
    }

    /// After a factor passed: "已通过面容验证，还需完成一项验证" / "Face ID passed. One more verification is
    /// needed." (`sensor` names the biometric kind).
    public func factorPassed(_ passed: [VerificationMethodKind], remaining: Int, sensor: BiometryKind) -> String {
        let zhNames = passed.map { passedName($0, sensor: sensor, in: .zhHans) }.joined(separator: "和")
        let enNames = passed.map { passedName($0, sensor: sensor, in: .en) }.joined(separator: " and ")
        let zhLeft = remaining == 1 ? "还需完成一项验证" : "还需完成\(remaining)项验证"
        let enLeft = remaining == 1 ? "One more verification is needed." : "\(remaining) more verifications are needed."
        let enSubject = enNames.prefix(1).uppercased() + enNames.dropFirst()
        return language.pick("已通过\(zhNames)，\(zhLeft)", "\(enSubject) passed. \(enLeft)")
    }

    /// What "继续" / "Continue" does after a factor passed.
    public var nextFactorHint: String {
        language.pick("继续完成下一项验证", "Goes on to the next verification.")
    }

    /// A passed kind as the sentence names it: "面容验证" / "Face ID", "资金密码验证" / "fund password".
    private func passedName(_ kind: VerificationMethodKind, sensor: BiometryKind, in language: LatchLanguage)
        -> String
    {
        let (zhHans, en): (String, String) =
            switch kind {
            case .biometric:
                switch sensor {
                case .faceID: ("面容验证", "Face ID")
                case .touchID: ("指纹验证", "Touch ID")
                case .opticID: ("Optic ID验证", "Optic ID")
                }
            case .totp: ("2FA验证", "two-factor authentication")
            case .fundPassword: ("资金密码验证", "fund password")
            case .passkey: ("通行密钥验证", "passkey")
            case .emailCode: ("邮箱验证码验证", "email code")
            }
        return language.pick(zhHans, en)
    }

    // MARK: The emailed code

    /// The emailed code's page title.
    public var emailCodeTitle: String { language.pick("邮箱验证码", "Email Code") }

    /// Before a code was sent.
    public var emailCodeSendPrompt: String {
        language.pick("我们将向您的邮箱发送6位验证码", "We’ll email you a 6-digit code.")
    }

    /// Once a code was sent.
    public var emailCodeSentPrompt: String {
        language.pick("验证码已发送至您的邮箱，请输入6位验证码", "We emailed you a code. Enter its 6 digits.")
    }

    /// "发送验证码" / "Send Code".
    public var sendCode: String { language.pick("发送验证码", "Send Code") }

    /// "重新发送" / "Resend Code" once the wait is over.
    /// The line when the server does not count the answer's method (422 `method`): "这项验证已通过，请完成另一项验证" /
    /// "This verification already passed. Complete another one.", or "此操作不能使用该验证方式，请选择其他方式" /
    /// "This method cannot verify this action. Choose another method."
    public func methodRefused(_ refusal: VerificationMethodRefusal) -> String {
        switch refusal {
        case .alreadyPassed:
            language.pick("这项验证已通过，请完成另一项验证", "This verification already passed. Complete another one.")
        case .notOffered:
            language.pick("此操作不能使用该验证方式，请选择其他方式", "This method cannot verify this action. Choose another method.")
        }
    }

    public var resendCode: String { language.pick("重新发送", "Resend Code") }

    /// The resend button while the server's wait runs: "60秒后可重新发送" / "Resend in 60 s".
    public func resendCode(in seconds: Int) -> String {
        language.pick("\(seconds)秒后可重新发送", "Resend in \(seconds) s")
    }

    /// What VoiceOver says for the resend button while the wait runs, in words: "60秒后可重新发送" / "Resend in
    /// 60 seconds".
    public func resendCodeLabel(in seconds: Int) -> String {
        language.pick("\(seconds)秒后可重新发送", seconds == 1 ? "Resend in 1 second" : "Resend in \(seconds) seconds")
    }

    /// What "发送验证码" / "Send Code" does.
    public var sendCodeHint: String {
        language.pick("向您的邮箱发送6位验证码", "Emails you a 6-digit code for this verification.")
    }

    /// What was typed cannot be an emailed code.
    public var invalidEmailCodeFormat: String {
        language.pick("请输入6位数字验证码", "Enter the 6-digit code.")
    }

    /// What VoiceOver says after the emailed code field's label.
    public var emailCodeHint: String {
        language.pick("输入邮件中的6位验证码", "The 6-digit code from the email.")
    }

    // MARK: The limit

    /// The limit page's title: "已达提现限额" / "Withdrawal Limit Reached" (for action `withdrawal`).
    public func policyLimitTitle(_ action: String) -> String {
        let limited = HeldAction(action)
        // The title word is plural ("Withdrawals"); the limit is named by the singular.
        let noun = limited.enTitle.hasSuffix("s") ? String(limited.enTitle.dropLast()) : limited.enTitle
        return language.pick("已达\(limited.zhHans)限额", "\(noun == "Action" ? "" : "\(noun) ")Limit Reached")
    }

    /// The limit page's main line.
    public var policyLimitMessage: String {
        language.pick(
            "此操作将超出您过去24小时的限额，请减少金额或稍后再试",
            "This would exceed your limit for the last 24 hours. Try a smaller amount or try later.")
    }

    /// The limit and what is left: "限额：50000 USDT，剩余：12000.5 USDT" / "Limit: 50000 USDT. Left: 12000.5 USDT.".
    public func policyLimitDetail(_ limit: VerificationPolicyLimit) -> String {
        let unit = limit.unit.isEmpty ? "" : " \(limit.unit)"
        return language.pick(
            "限额：\(limit.limit)\(unit)，剩余：\(limit.remaining)\(unit)",
            "Limit: \(limit.limit)\(unit). Left: \(limit.remaining)\(unit).")
    }

    // MARK: The locked new value

    /// The locked new value's title: "新地址暂不可用" / "New Address Not Yet Usable".
    public func newValueLockedTitle(_ parameter: String) -> String {
        let (zhHans, en) = Self.parameterName(parameter)
        return language.pick("新\(zhHans)暂不可用", "New \(en.capitalized) Not Yet Usable")
    }

    /// Why: "为保障资金安全，新添加的地址需等待一段时间后才能使用" / "For your security, a new address can be used
    /// only after a waiting period.".
    public func newValueLockedMessage(_ parameter: String) -> String {
        let (zhHans, en) = Self.parameterName(parameter)
        return language.pick(
            "为保障资金安全，新添加的\(zhHans)需等待一段时间后才能使用",
            "For your security, a new \(en) can be used only after a waiting period.")
    }

    /// The "expired" page once the lock is over.
    public var newValueLockEnded: String {
        language.pick("等待期已结束，请重新验证", "The waiting period is over. Please verify again.")
    }

    /// A parameter as people name it: `address` is "地址" / "address"; any other is named as sent.
    private static func parameterName(_ parameter: String) -> (String, String) {
        switch parameter {
        case "address", "to_address", "destination": ("地址", "address")
        case "": ("信息", "value")
        default: (parameter, parameter)
        }
    }
}
