import LatchCore

extension MailTemplates {
    /// A security change that has no mail of its own (issue 19 §3: every security change is a notice,
    /// sent with a freeze link by `LatchServices.sendSecurityNotice`).
    enum SecurityChange: Sendable {
        case totpDisabled
        case fundPasswordChanged
        case emailAdded
        case phoneLinked
        case identityLinked
        case antiPhishingCodeSet
        case antiPhishingCodeRemoved
        /// "新设备登录时通知" was turned off (issue 23 §1).
        case newDeviceNoticeTurnedOff
    }

    static func securityChange(_ change: SecurityChange, language: LatchLanguage) -> Mail {
        let what: String =
            switch (change, language) {
            case (.totpDisabled, .zhHans): "你的账号刚刚关闭了两步验证。"
            case (.totpDisabled, .en): "Two-step verification was just turned off for your account."
            case (.fundPasswordChanged, .zhHans): "你的资金密码刚刚被更改。"
            case (.fundPasswordChanged, .en): "Your fund password was just changed."
            case (.emailAdded, .zhHans): "你的账号刚刚绑定了此邮箱。"
            case (.emailAdded, .en): "This email address was just added to your account."
            case (.phoneLinked, .zhHans): "你的账号刚刚绑定了新的手机号。"
            case (.phoneLinked, .en): "A phone number was just linked to your account."
            case (.identityLinked, .zhHans): "你的账号刚刚关联了新的登录方式。"
            case (.identityLinked, .en): "A new way to sign in was just linked to your account."
            case (.antiPhishingCodeSet, .zhHans): "你的防钓鱼码刚刚被设置或更改，此后我们发给你的每封邮件都会显示它。"
            case (.antiPhishingCodeSet, .en):
                "Your anti-phishing code was just set or changed; every mail we send you shows it from now on."
            case (.antiPhishingCodeRemoved, .zhHans): "你的防钓鱼码刚刚被删除。"
            case (.antiPhishingCodeRemoved, .en): "Your anti-phishing code was just removed."
            case (.newDeviceNoticeTurnedOff, .zhHans): "你的账号刚刚关闭了“新设备登录时通知”，此后在新设备上登录将不再邮件通知你。"
            case (.newDeviceNoticeTurnedOff, .en):
                "Sign-in notices for new devices were just turned off for your account; we will no longer mail you when a new device signs in."
            }
        return switch language {
        case .zhHans:
            Mail(
                subject: "你的 Latch 账号安全设置已更改",
                blocks: [.text(what), .text("为保障资金安全，安全设置变更后提现等操作可能暂停一段时间。如果不是你本人操作，请立即冻结账号。")],
                language: language)
        case .en:
            Mail(
                subject: "A security setting of your Latch account changed",
                blocks: [
                    .text(what),
                    .text(
                        "For your security, withdrawals may be paused for a while after a security change. If this was not you, freeze your account now."
                    )
                ],
                language: language)
        }
    }
}
