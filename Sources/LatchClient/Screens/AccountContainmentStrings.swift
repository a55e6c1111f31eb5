import LatchCore

/// The texts of the account containment screen (issue 19 §3, §4), in Simplified Chinese and English.
/// The holds' own texts come from `VerificationStrings` (the verification page's hold page).
public struct AccountContainmentStrings: Sendable, Equatable {
    public let language: LatchLanguage

    public init(_ language: LatchLanguage) {
        self.language = language
    }

    /// "账户保护" / "Account Protection".
    public var title: String { language.pick("账户保护", "Account Protection") }

    // MARK: Anti-phishing code (§4)

    /// "防钓鱼码" / "Anti-Phishing Code".
    public var antiPhishingTitle: String { language.pick("防钓鱼码", "Anti-Phishing Code") }
    /// What the code is for.
    public var antiPhishingExplanation: String {
        language.pick(
            "设置后，我们发给您的每封邮件都会显示此码；没有此码的邮件不是我们发的",
            "Every mail we send you shows this code. A mail without it is not from us.")
    }
    /// "未设置" / "Not set".
    public var antiPhishingNotSet: String { language.pick("未设置", "Not set") }
    /// The field's placeholder.
    public var codePlaceholder: String { language.pick("4-20位字符", "4–20 characters") }
    /// What a code must be, shown while the typed one is not acceptable.
    public var codeRule: String {
        language.pick("防钓鱼码为4-20位可见字符，不含空格", "The code is 4 to 20 visible characters, without spaces.")
    }
    /// "保存" / "Save".
    public var save: String { language.pick("保存", "Save") }
    /// "移除" / "Remove".
    public var remove: String { language.pick("移除", "Remove") }
    /// After saving.
    public var codeSaved: String { language.pick("防钓鱼码已设置", "The anti-phishing code is set.") }
    /// After removing.
    public var codeRemoved: String { language.pick("防钓鱼码已移除", "The anti-phishing code was removed.") }
    /// The verification page's description when the server asks for one.
    public var codeVerificationReason: String { language.pick("设置防钓鱼码", "Set the anti-phishing code") }

    // MARK: Holds (§2)

    /// "安全暂停" / "Security Holds".
    public var holdsTitle: String { language.pick("安全暂停", "Security Holds") }
    /// "没有进行中的安全暂停" / "No security hold is running.".
    public var noHolds: String { language.pick("没有进行中的安全暂停", "No security hold is running.") }

    // MARK: Freeze (§3)

    /// The button: "这不是我本人操作，冻结账号" / "This Wasn't Me: Freeze the Account".
    public var freeze: String { language.pick("这不是我本人操作，冻结账号", "This Wasn't Me: Freeze the Account") }
    /// The confirmation's question.
    public var freezeQuestion: String {
        language.pick(
            "立即冻结账号？所有设备（包括本机）将退出登录，通行密钥和设备密钥失效；之后需通过邮箱验证码重置密码才能解冻",
            "Freeze the account now? Every device, this one too, is signed out and its passkeys and device keys end. To unfreeze, reset the password with an emailed code."
        )
    }
    /// "确认冻结" / "Freeze".
    public var confirmFreeze: String { language.pick("确认冻结", "Freeze") }
    /// "取消" / "Cancel".
    public var cancel: String { language.pick("取消", "Cancel") }
    /// After freezing.
    public var frozen: String {
        language.pick("账号已冻结，所有设备均已退出登录", "The account is frozen and every device is signed out.")
    }
}
