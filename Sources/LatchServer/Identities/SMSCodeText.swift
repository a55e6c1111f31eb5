import Foundation
import LatchCore

/// The text of a sign-in code SMS, in the request's language.
enum SMSCodeText {
    static func signInCode(_ code: String, language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "【Latch】您的登录验证码是 \(code)，5 分钟内有效。请勿告诉他人。"
        case .en: "Latch: your sign-in code is \(code). It expires in 5 minutes. Do not share it."
        }
    }

    /// Too many wrong codes for this number (issue 10): its codes are refused until `until`.
    static func codesLocked(until: Date, language: LatchLanguage) -> String {
        let time = ISO8601DateFormatter().string(from: until)
        return switch language {
        case .zhHans: "【Latch】此号码的验证码错误次数过多，短信登录已暂停至 \(time)（UTC）。如非本人操作，请忽略。"
        case .en:
            "Latch: too many wrong codes for this number. SMS sign-in is paused until \(time) (UTC). If this was not you, ignore this text."
        }
    }

    /// A security notice by SMS, for an account without an email (issue 28 §2): what changed, and the
    /// one-time freeze link.
    static func securityNotice(_ notice: SecurityNotice, freezeLink: String, language: LatchLanguage) -> String {
        let what = MailTemplates.describe(notice, language: language)
        return switch language {
        case .zhHans: "【Latch】你的账号：\(what)。如非本人操作，请立即冻结账号：\(freezeLink)"
        case .en: "Latch: \(what). Not you? Freeze your account now: \(freezeLink)"
        }
    }
}
