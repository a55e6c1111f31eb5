import LatchCore

extension MailTemplates {
    /// `name` is the user's text: shown only as `MailDisplayText` cleans it.
    static func passkeyAdded(name: String, language: LatchLanguage) -> Mail {
        let shown = MailDisplayText.cleaned(name) ?? "Passkey"
        return switch language {
        case .zhHans:
            Mail(
                subject: "你的账号添加了新的通行密钥",
                blocks: [.text("通行密钥“\(shown)”刚刚添加到你的账号，可用于登录。"), .text("如果不是你本人操作，请立即删除它并修改密码。")],
                language: language)
        case .en:
            Mail(
                subject: "A passkey was added to your account",
                blocks: [
                    .text("The passkey \(shown) was just added to your account and can now sign in."),
                    .text("If this was not you, remove it in your settings and change your password now.")
                ],
                language: language)
        }
    }

    /// `name` is the user's text: shown only as `MailDisplayText` cleans it.
    static func passkeyRemoved(name: String, language: LatchLanguage) -> Mail {
        let shown = MailDisplayText.cleaned(name) ?? "Passkey"
        return switch language {
        case .zhHans:
            Mail(
                subject: "你的账号删除了一个通行密钥",
                blocks: [.text("通行密钥“\(shown)”刚刚从你的账号中删除，不能再用于登录。"), .text("如果不是你本人操作，请立即修改密码。")],
                language: language)
        case .en:
            Mail(
                subject: "A passkey was removed from your account",
                blocks: [
                    .text("The passkey \(shown) was just removed from your account and can no longer sign in."),
                    .text("If this was not you, change your password now.")
                ],
                language: language)
        }
    }
}
