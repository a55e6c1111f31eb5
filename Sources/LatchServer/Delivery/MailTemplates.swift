import Foundation
import LatchCore

/// Every mail latchd sends, in Simplified Chinese and English: a subject, a plain-text body and a
/// simple HTML body (built from the same paragraphs, every value escaped).
enum MailTemplates {
    struct Mail: Sendable {
        let subject: String
        let blocks: [MailHTML.Block]
        let language: LatchLanguage
        /// The recipient's anti-phishing code (issue 19 §4), set by `LatchServices.send` for an address
        /// with an account that chose one: shown first, in both parts.
        var antiPhishingCode: String? = nil
        /// The one-time "this wasn't me" link of a security notice (issue 19 §3), set by
        /// `LatchServices.sendSecurityNotice`: shown last, before the signature.
        var freezeLink: String? = nil

        /// The label of the anti-phishing line, the same in every language so the user finds it.
        static let antiPhishingLabel = "防钓鱼码 / Anti-phishing code: "

        /// Every paragraph in its fixed place: the anti-phishing line, the template's paragraphs, the
        /// freeze link, the signature.
        private var allBlocks: [MailHTML.Block] {
            var all: [MailHTML.Block] = []
            if let antiPhishingCode { all.append(.boxed(Self.antiPhishingLabel + antiPhishingCode)) }
            all += blocks
            if let freezeLink { all.append(.link(freezeText, url: freezeLink)) }
            all.append(.text(signature))
            return all
        }

        /// The text/plain body: the paragraphs, a blank line apart, ending with the signature.
        var body: String { allBlocks.map(\.plainText).joined(separator: "\n\n") }

        /// The text/html body.
        var html: String { MailHTML.page(allBlocks, language: language.rawValue) }

        private var freezeText: String {
            switch language {
            case .zhHans: "不是你本人操作？立即冻结账号（链接 7 天内有效，仅可使用一次）："
            case .en: "Wasn't you? Freeze your account now (the link works once, for 7 days):"
            }
        }

        private var signature: String {
            switch language {
            case .zhHans: "—— Latch（系统邮件，请勿回复）"
            case .en: "— Latch (an automatic message; replies are not read)"
            }
        }
    }

    static func registrationCode(_ code: String, language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(
                subject: "Latch 注册验证码：\(code)",
                blocks: [.text("你的注册验证码如下，10 分钟内有效："), .code(code), .text("如果不是你本人操作，请忽略此邮件。")],
                language: language)
        case .en:
            Mail(
                subject: "Your Latch sign-up code: \(code)",
                blocks: [
                    .text("Your sign-up code, valid for 10 minutes:"), .code(code),
                    .text("If you did not ask for it, ignore this mail.")
                ],
                language: language)
        }
    }

    static func emailLinkCode(_ code: String, language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(
                subject: "Latch 绑定邮箱验证码：\(code)",
                blocks: [
                    .text("你正在为 Latch 账号绑定此邮箱，验证码如下，10 分钟内有效："), .code(code),
                    .text("如果不是你本人操作，请忽略此邮件，邮箱不会被绑定。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Your Latch code to add this email: \(code)",
                blocks: [
                    .text("You are adding this address to a Latch account. Your code, valid for 10 minutes:"),
                    .code(code),
                    .text("If you did not ask for it, ignore this mail; the address will not be added.")
                ],
                language: language)
        }
    }

    /// The code that removes this address from its account (issue 28 §2).
    static func emailRemovalCode(_ code: String, language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(
                subject: "Latch 移除邮箱验证码：\(code)",
                blocks: [
                    .text("有人正在从你的 Latch 账号中移除此邮箱（以及用它登录的密码），验证码如下，10 分钟内有效："), .code(code),
                    .text("如果不是你本人操作，请勿把验证码告诉任何人，并立即冻结账号。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Your Latch code to remove this email: \(code)",
                blocks: [
                    .text(
                        "Someone is removing this address (and the password that signs in with it) from your Latch account. The code, valid for 10 minutes:"
                    ),
                    .code(code),
                    .text("If this is not you, do not share the code with anyone, and freeze your account now.")
                ],
                language: language)
        }
    }

    static func registrationAttemptOnExistingAccount(language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(
                subject: "有人尝试用你的邮箱注册 Latch",
                blocks: [.text("有人尝试用此邮箱注册新账号，但你已拥有账号，我们没有做任何更改。"), .text("如果忘记了密码，可以在登录页重置。")],
                language: language)
        case .en:
            Mail(
                subject: "Someone tried to sign up with your email",
                blocks: [
                    .text(
                        "Someone tried to create a Latch account with this address, but you already have one. Nothing was changed."
                    ),
                    .text("If you forgot your password, you can reset it from the sign-in screen.")
                ],
                language: language)
        }
    }

    static func passwordResetCode(_ code: String, language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(
                subject: "Latch 重置密码验证码：\(code)",
                blocks: [.text("你的重置密码验证码如下，10 分钟内有效："), .code(code), .text("如果不是你本人操作，请立即检查账号安全。")],
                language: language)
        case .en:
            Mail(
                subject: "Your Latch password reset code: \(code)",
                blocks: [
                    .text("Your password reset code, valid for 10 minutes:"), .code(code),
                    .text("If you did not ask for it, check your account's security.")
                ],
                language: language)
        }
    }

    static func lockWarning(until: Date, language: LatchLanguage) -> Mail {
        let time = ISO8601DateFormatter().string(from: until)
        return switch language {
        case .zhHans:
            Mail(
                subject: "安全警告：你的 Latch 账号已被暂时锁定",
                blocks: [
                    .text("由于多次输入错误的密码，你的账号已被锁定至 \(time)（UTC）。"),
                    .text("如果不是你本人操作，建议立即通过邮箱验证码重置密码。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Security warning: your Latch account is temporarily locked",
                blocks: [
                    .text("After repeated wrong passwords your account is locked until \(time) (UTC)."),
                    .text("If this was not you, reset your password with an email code now.")
                ],
                language: language)
        }
    }

    /// Too many wrong emailed codes for one address (issue 10): its codes are refused until `until`.
    static func codesLocked(until: Date, language: LatchLanguage) -> Mail {
        let time = ISO8601DateFormatter().string(from: until)
        return switch language {
        case .zhHans:
            Mail(
                subject: "安全警告：验证码错误次数过多",
                blocks: [
                    .text("有人多次输入了错误的验证码，发往此邮箱的验证码已暂停使用至 \(time)（UTC）。"),
                    .text("之后你可以重新获取验证码。如果不是你本人操作，请检查账号安全；通过邮箱验证码重置密码不受影响。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Security warning: too many wrong codes",
                blocks: [
                    .text(
                        "Someone entered wrong codes many times; codes sent to this address are refused until \(time) (UTC)."
                    ),
                    .text("After that you can ask for a new code. If this was not you, check your account's security.")
                ],
                language: language)
        }
    }

    static func passwordChanged(language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(
                subject: "你的 Latch 密码已更改",
                blocks: [.text("你的登录密码刚刚被更改，其他设备已退出登录。"), .text("如果不是你本人操作，请立即重置密码。")],
                language: language)
        case .en:
            Mail(
                subject: "Your Latch password was changed",
                blocks: [
                    .text("Your password was just changed and your other devices were signed out."),
                    .text("If this was not you, reset your password now.")
                ],
                language: language)
        }
    }

    /// `ended` says how many sessions, device keys and passkeys the security reset ended (issue 19 §1).
    /// The name of a way in or factor a password reset kept (`SecurityReset.kept`).
    static func keptName(_ kept: String, _ language: LatchLanguage) -> String {
        switch (kept, language) {
        case ("phone", .zhHans): "手机号"
        case ("phone", .en): "the phone number"
        case ("apple", _): "Apple"
        case ("wechat", .zhHans): "微信"
        case ("wechat", .en): "WeChat"
        case ("totp", .zhHans): "两步验证（身份验证器）"
        case ("totp", .en): "two-step verification (authenticator app)"
        case ("fund_password", .zhHans): "资金密码"
        case ("fund_password", .en): "the fund password"
        default: kept
        }
    }

    static func passwordWasReset(ended: SecurityReset.Ended, kept: [String] = [], language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(
                subject: "你的 Latch 密码已重置",
                blocks: [
                    .text("你的登录密码刚刚通过邮箱验证码重置。所有设备均已退出登录，已绑定的设备密钥（面容 ID / 触控 ID 登录）和通行密钥已全部移除。"),
                    .text(
                        "已结束：\(ended.sessions) 个登录会话，\(ended.deviceKeys) 个设备密钥，\(ended.passkeys) 个通行密钥，\(ended.verificationTokens) 个未使用的验证凭证。"
                    ),
                    .text(
                        kept.isEmpty
                            ? "保留：无其他登录方式或验证方式。"
                            : "保留：" + kept.map { keptName($0, language) }.joined(separator: "、") + "。请确认每一项都是你本人添加的。"),
                    .text("“异常登录验证”已重新开启；最近新增的两步验证和登录方式已移除。请重新设置防钓鱼码。"),
                    .text("如需在设备上继续使用生物识别登录或通行密钥，请登录后重新添加。如果不是你本人操作，请立即再次重置密码。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Your Latch password was reset",
                blocks: [
                    .text(
                        "Your password was just reset with a code sent to this address. All devices were signed out, and device keys (Face ID / Touch ID sign-in) and passkeys were removed."
                    ),
                    .text(
                        "Ended: \(ended.sessions) sessions, \(ended.deviceKeys) device keys, \(ended.passkeys) passkeys, \(ended.verificationTokens) unused verification proofs."
                    ),
                    .text(
                        kept.isEmpty
                            ? "Kept: no other way to sign in and no other factor."
                            : "Kept: " + kept.map { keptName($0, language) }.joined(separator: ", ")
                                + ". Check that you added each of them yourself."
                    ),
                    .text(
                        "Verification of unusual sign-ins is on again; two-step verification and ways to sign in added recently were removed. Choose a new anti-phishing code."
                    ),
                    .text(
                        "Sign in and turn biometric sign-in on again where you want it. If this was not you, reset your password again now."
                    )
                ],
                language: language)
        }
    }

    static func fundPasswordLocked(until: Date, language: LatchLanguage) -> Mail {
        let time = ISO8601DateFormatter().string(from: until)
        return switch language {
        case .zhHans:
            Mail(
                subject: "安全警告：你的资金密码已被锁定",
                blocks: [
                    .text("由于资金密码多次输入错误（连续 5 次或一天内 10 次），资金密码验证已被锁定至 \(time)（UTC）。"),
                    .text("如果不是你本人操作，请立即修改登录密码。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Security warning: your fund password is locked",
                blocks: [
                    .text(
                        "After too many wrong fund passwords (5 in a row or 10 in a day), fund password verification is locked until \(time) (UTC)."
                    ),
                    .text("If this was not you, change your password now.")
                ],
                language: language)
        }
    }

    static func totpLocked(until: Date, language: LatchLanguage) -> Mail {
        let time = ISO8601DateFormatter().string(from: until)
        return switch language {
        case .zhHans:
            Mail(
                subject: "安全警告：你的两步验证已被锁定",
                blocks: [
                    .text("由于两步验证码多次输入错误（连续 5 次或一天内 10 次），两步验证已被锁定至 \(time)（UTC）。"),
                    .text("如果不是你本人操作，请立即修改密码。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Security warning: your two-factor codes are locked",
                blocks: [
                    .text(
                        "After too many wrong two-factor codes (5 in a row or 10 in a day), code verification is locked until \(time) (UTC)."
                    ),
                    .text("If this was not you, change your password now.")
                ],
                language: language)
        }
    }

    /// `deviceName` is the client's text: shown only as `MailDisplayText` cleans it.
    static func deviceBound(deviceName: String?, language: LatchLanguage) -> Mail {
        let name = MailDisplayText.cleaned(deviceName) ?? (language == .zhHans ? "未命名设备" : "an unnamed device")
        return switch language {
        case .zhHans:
            Mail(
                subject: "新设备已开启生物识别登录",
                blocks: [.text("“\(name)”刚刚绑定了生物识别登录。"), .text("如果不是你本人操作，请立即在设置中解除绑定并修改密码。")],
                language: language)
        case .en:
            Mail(
                subject: "A new device can now sign in with biometrics",
                blocks: [
                    .text("\(name) was just bound for Face ID / Touch ID sign-in."),
                    .text("If this was not you, unbind it in your settings and change your password now.")
                ],
                language: language)
        }
    }

    /// `deviceName` and `ip` come from the client: shown only as `MailDisplayText` cleans them.
    static func newDeviceSignedIn(deviceName: String?, ip: String?, language: LatchLanguage) -> Mail {
        let name = MailDisplayText.cleaned(deviceName) ?? (language == .zhHans ? "未知设备" : "an unknown device")
        let address = MailDisplayText.cleaned(ip) ?? "?"
        return switch language {
        case .zhHans:
            Mail(
                subject: "你的 Latch 账号在新设备上登录",
                blocks: [.text("你的账号刚刚在“\(name)”上登录（IP \(address)）。"), .text("如果不是你本人操作，请立即修改密码并退出该设备。")],
                language: language)
        case .en:
            Mail(
                subject: "New sign-in to your Latch account",
                blocks: [
                    .text("Your account was just signed in on \(name) (IP \(address))."),
                    .text("If this was not you, change your password and sign that device out now.")
                ],
                language: language)
        }
    }

    static func unusualSignInCode(_ code: String, language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(
                subject: "Latch 新设备登录验证码：\(code)",
                blocks: [
                    .text("有人正在新设备上登录你的账号。验证码如下，10 分钟内有效："), .code(code),
                    .text("如果不是你本人操作，请勿告诉任何人并立即修改密码。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Your Latch sign-in code: \(code)",
                blocks: [
                    .text("Someone is signing in to your account on a new device. The code, valid for 10 minutes:"),
                    .code(code), .text("If this is not you, share it with no one and change your password now.")
                ],
                language: language)
        }
    }
}
