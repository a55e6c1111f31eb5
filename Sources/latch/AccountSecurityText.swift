import Foundation
import LatchClient
import LatchCore

/// The sentences of `latch account freeze`, `security` and `anti-phishing`, and of `latch password reset`
/// (issue 19), in zh-Hans and English.
struct AccountSecurityText {
    let language: LatchLanguage

    // MARK: Freeze

    func freezeQuestion(_ name: String) -> String {
        language.pick(
            "冻结账号 \(name)？所有设备（包括本机）将退出登录，通行密钥和设备密钥失效；之后需通过邮箱验证码重置密码才能解冻。输入“是”确认 > ",
            "Freeze the account \(name)? Every device (this one too) is signed out and its passkeys and device keys end; to unfreeze, reset the password with an emailed code. Type yes to confirm > "
        )
    }
    var notFrozen: String { language.pick("已取消，账号未冻结", "Cancelled; the account was not frozen.") }
    var frozen: String {
        language.pick(
            "账号已冻结，所有设备均已退出登录。如需恢复，请运行 latch password reset EMAIL",
            "The account is frozen and every device signed out. To recover it, run `latch password reset EMAIL`.")
    }
    var freezeLinkAccepted: String {
        language.pick(
            "冻结请求已提交：如链接有效，该账号已被冻结",
            "The freeze request was accepted: if the link was valid, its account is now frozen.")
    }

    // MARK: Security

    var noHolds: String { language.pick("没有进行中的安全暂停", "No security hold is running.") }
    func hold(_ hold: SecurityHoldInfo, strings: VerificationStrings) -> String {
        let actions = hold.actions.joined(separator: ", ")
        let until = strings.holdUntil(hold.holdUntil, in: .current)
        return language.pick("暂停：\(actions)", "Paused: \(actions)") + " · " + strings.holdReason(hold.knownReason)
            + " · "
            + until
    }
    func antiPhishingCode(_ code: String?) -> String {
        guard let code else { return language.pick("防钓鱼码：未设置", "Anti-phishing code: not set") }
        return language.pick("防钓鱼码：\(code)", "Anti-phishing code: \(code)")
    }

    /// "新设备登录时通知：开启" / "Notify me of sign-ins from new devices: on" (seed 004 §6.2).
    func newDeviceNotice(_ on: Bool) -> String {
        let strings = SecuritySettingsStrings(language)
        return language.pick(
            "\(strings.notifyNewDevices)：\(on ? "开启" : "关闭")", "\(strings.notifyNewDevices): \(on ? "on" : "off")")
    }

    // MARK: Anti-phishing code

    func antiPhishingSet(_ code: String) -> String {
        language.pick(
            "防钓鱼码已设置为 \(code)：之后所有来自 Latch 的邮件都会显示它",
            "The anti-phishing code is now \(code): every mail from Latch will show it.")
    }
    var antiPhishingRemoved: String { language.pick("防钓鱼码已移除", "The anti-phishing code was removed.") }

    // MARK: Password reset

    func resetCodeSent(_ email: String) -> String {
        language.pick("如果 \(email) 有账号，重置验证码已发送到该邮箱", "If \(email) has an account, a reset code was mailed to it.")
    }
    var resetCodePrompt: String { language.pick("邮件中的6位验证码 > ", "The 6-digit code from the email > ") }
    var secondFactorPrompt: String {
        language.pick(
            "该账号已冻结并开启了2FA：请输入身份验证器中的6位验证码或恢复码 > ",
            "This account is frozen and has 2FA on: enter the 6-digit code from your authenticator app, or a recovery code > "
        )
    }
    var secondFactorMissing: String {
        language.pick("未输入2FA验证码，密码未重置", "No 2FA code was entered; the password was not reset.")
    }
    var passwordReset: String {
        language.pick(
            "密码已重置，所有设备均已退出登录；如账号曾被冻结，现已解冻。安全设置变更后，提现等操作将暂停一段时间",
            "The password was reset and every device signed out; a frozen account is unfrozen. After this security change, withdrawals and similar actions are paused for a while."
        )
    }
}
