import Foundation
import LatchCore

/// The text of every mail latchd sends, in both languages.
enum MailTemplates {
    struct Mail {
        let subject: String
        let body: String
    }

    static func registrationCode(_ code: String, language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(subject: "Latch 注册验证码：\(code)", body: "你的注册验证码是 \(code)，10 分钟内有效。如果不是你本人操作，请忽略此邮件。")
        case .en:
            Mail(
                subject: "Your Latch sign-up code: \(code)",
                body: "Your sign-up code is \(code). It is valid for 10 minutes. If you did not ask for it, ignore this mail.")
        }
    }

    static func registrationAttemptOnExistingAccount(language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(subject: "有人尝试用你的邮箱注册 Latch", body: "有人尝试用此邮箱注册新账号，但你已拥有账号，我们没有做任何更改。如果忘记了密码，可以在登录页重置。")
        case .en:
            Mail(
                subject: "Someone tried to sign up with your email",
                body: "Someone tried to create a Latch account with this address, but you already have one. Nothing was changed. If you forgot your password, you can reset it from the sign-in screen.")
        }
    }

    static func passwordResetCode(_ code: String, language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(subject: "Latch 重置密码验证码：\(code)", body: "你的重置密码验证码是 \(code)，10 分钟内有效。如果不是你本人操作，请立即检查账号安全。")
        case .en:
            Mail(
                subject: "Your Latch password reset code: \(code)",
                body: "Your password reset code is \(code). It is valid for 10 minutes. If you did not ask for it, check your account's security.")
        }
    }

    static func lockWarning(until: Date, language: LatchLanguage) -> Mail {
        let time = ISO8601DateFormatter().string(from: until)
        return switch language {
        case .zhHans:
            Mail(
                subject: "安全警告：你的 Latch 账号已被暂时锁定",
                body: "由于多次输入错误的密码，你的账号已被锁定至 \(time)（UTC）。如果不是你本人操作，建议立即通过邮箱验证码重置密码。")
        case .en:
            Mail(
                subject: "Security warning: your Latch account is temporarily locked",
                body: "After repeated wrong passwords your account is locked until \(time) (UTC). If this was not you, reset your password with an email code now.")
        }
    }

    static func passwordChanged(language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(subject: "你的 Latch 密码已更改", body: "你的登录密码刚刚被更改，其他设备已退出登录。如果不是你本人操作，请立即重置密码。")
        case .en:
            Mail(
                subject: "Your Latch password was changed",
                body: "Your password was just changed and your other devices were signed out. If this was not you, reset your password now.")
        }
    }
}
