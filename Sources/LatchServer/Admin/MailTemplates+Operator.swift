import Foundation
import LatchCore

extension MailTemplates {
    /// An operator removed the user's TOTP 2FA (issue 12 §2).
    static func totpResetByOperator(language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(
                subject: "你的 Latch 两步验证已被重置",
                blocks: [
                    .text("应你的请求，客服已移除你账号的两步验证（身份验证器应用及恢复码）。"),
                    .text("请登录后重新开启两步验证。如果你没有提出过此请求，请立即修改密码并联系客服。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Your Latch two-factor authentication was reset",
                blocks: [
                    .text(
                        "Support removed two-factor authentication (authenticator app and recovery codes) from your account."
                    ),
                    .text(
                        "Sign in and turn it on again. If you did not ask for this, change your password now and contact support."
                    )
                ],
                language: language)
        }
    }

    /// An operator removed the user's fund password (issue 12 §2).
    static func fundPasswordResetByOperator(language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(
                subject: "你的 Latch 资金密码已被重置",
                blocks: [
                    .text("应你的请求，客服已移除你账号的资金密码。"),
                    .text("请登录后设置新的资金密码。如果你没有提出过此请求，请立即修改密码并联系客服。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Your Latch fund password was reset",
                blocks: [
                    .text("Support removed the fund password from your account."),
                    .text(
                        "Sign in and set a new one. If you did not ask for this, change your password now and contact support."
                    )
                ],
                language: language)
        }
    }
}
