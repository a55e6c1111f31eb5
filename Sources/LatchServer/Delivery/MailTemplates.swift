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

    static func fundPasswordLocked(until: Date, language: LatchLanguage) -> Mail {
        let time = ISO8601DateFormatter().string(from: until)
        return switch language {
        case .zhHans:
            Mail(
                subject: "安全警告：你的资金密码已被锁定",
                body: "由于资金密码连续输入错误 5 次，资金密码验证已被锁定至 \(time)（UTC）。如果不是你本人操作，请立即修改登录密码。")
        case .en:
            Mail(
                subject: "Security warning: your fund password is locked",
                body: "After 5 wrong fund passwords in a row, fund password verification is locked until \(time) (UTC). If this was not you, change your password now.")
        }
    }

    static func totpLocked(until: Date, language: LatchLanguage) -> Mail {
        let time = ISO8601DateFormatter().string(from: until)
        return switch language {
        case .zhHans:
            Mail(
                subject: "安全警告：你的两步验证已被锁定",
                body: "由于两步验证码连续输入错误 5 次，两步验证已被锁定至 \(time)（UTC）。如果不是你本人操作，请立即修改密码。")
        case .en:
            Mail(
                subject: "Security warning: your two-factor codes are locked",
                body: "After 5 wrong two-factor codes in a row, code verification is locked until \(time) (UTC). If this was not you, change your password now.")
        }
    }

    static func deviceBound(deviceName: String?, language: LatchLanguage) -> Mail {
        let name = deviceName ?? (language == .zhHans ? "未命名设备" : "an unnamed device")
        return switch language {
        case .zhHans:
            Mail(subject: "新设备已开启生物识别登录", body: "“\(name)”刚刚绑定了生物识别登录。如果不是你本人操作，请立即在设置中解除绑定并修改密码。")
        case .en:
            Mail(
                subject: "A new device can now sign in with biometrics",
                body: "\(name) was just bound for Face ID / Touch ID sign-in. If this was not you, unbind it in your settings and change your password now.")
        }
    }

    static func newDeviceSignedIn(deviceName: String?, ip: String?, language: LatchLanguage) -> Mail {
        let name = deviceName ?? (language == .zhHans ? "未知设备" : "an unknown device")
        let address = ip ?? "?"
        return switch language {
        case .zhHans:
            Mail(subject: "你的 Latch 账号在新设备上登录", body: "你的账号刚刚在“\(name)”上登录（IP \(address)）。如果不是你本人操作，请立即修改密码并退出该设备。")
        case .en:
            Mail(
                subject: "New sign-in to your Latch account",
                body: "Your account was just signed in on \(name) (IP \(address)). If this was not you, change your password and sign that device out now.")
        }
    }

    static func unusualSignInCode(_ code: String, language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(subject: "Latch 新设备登录验证码：\(code)", body: "有人正在新设备上登录你的账号。验证码 \(code)，10 分钟内有效。如果不是你本人操作，请勿告诉任何人并立即修改密码。")
        case .en:
            Mail(
                subject: "Your Latch sign-in code: \(code)",
                body: "Someone is signing in to your account on a new device. The code is \(code), valid for 10 minutes. If this is not you, share it with no one and change your password now.")
        }
    }
}
