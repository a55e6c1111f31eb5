import Foundation
import LatchCore

// The hold page's texts (issue 19 §2), in Simplified Chinese and English.
extension VerificationStrings {
    /// The page title, naming what is held: "提现已暂停" / "Withdrawals Paused" (for action `withdrawal`).
    public func holdTitle(_ action: String) -> String {
        let held = HeldAction(action)
        return text("\(held.zhHans)已暂停", "\(held.enTitle) Paused")
    }

    /// The page's main line: "为保障资金安全，安全设置变更后24小时内暂停提现" / "For your security, withdrawals
    /// are paused for 24 hours after a security change". Without a known length: "…安全设置变更后暂停提现" /
    /// "… are paused after a security change".
    public func holdMessage(_ action: String, hours: Int?) -> String {
        let held = HeldAction(action)
        guard let hours else {
            return text(
                "为保障资金安全，安全设置变更后暂停\(held.zhHans)", "For your security, \(held.enSubject) paused after a security change"
            )
        }
        let length = hours == 1 ? "1 hour" : "\(hours) hours"
        return text(
            "为保障资金安全，安全设置变更后\(hours)小时内暂停\(held.zhHans)",
            "For your security, \(held.enSubject) paused for \(length) after a security change")
    }

    /// Why the hold runs, by the change that started it: "原因：登录密码已重置" / "Why: your password was reset.".
    public func holdReason(_ reason: SecurityHoldReason?) -> String {
        let (zhHans, en): (String, String) =
            switch reason {
            case .passwordReset: ("登录密码已重置", "your password was reset.")
            case .passwordChanged: ("登录密码已修改", "your password was changed.")
            case .totpDisabled: ("2FA已关闭", "two-factor authentication was turned off.")
            case .totpReset: ("2FA已重置", "two-factor authentication was reset.")
            case .totpAdded: ("开启了2FA", "two-factor authentication was turned on.")
            case .fundPasswordAdded: ("设置了资金密码", "a fund password was set.")
            case .fundPasswordChanged: ("资金密码已修改", "your fund password was changed.")
            case .fundPasswordReset: ("资金密码已重置", "your fund password was reset.")
            case .passkeyAdded: ("添加了新的通行密钥", "a passkey was added.")
            case .deviceKeyAdded: ("新设备开启了面容或指纹登录", "biometric sign-in was turned on for a device.")
            case .emailChanged: ("邮箱已更换", "your email address was changed.")
            case .phoneChanged: ("手机号已更换", "your phone number was changed.")
            case .identityLinked: ("绑定了新的第三方账号", "another sign-in account was linked.")
            case .unfrozen: ("账户已解冻", "your account was unfrozen.")
            case nil: ("安全设置已变更", "a security setting was changed.")
            }
        return text("原因：\(zhHans)", "Why: \(en)")
    }

    /// Until when: "恢复时间：2026-11-27 14:05" / "Available again: 2026-11-27 14:05" (in `timeZone`).
    public func holdUntil(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let day = "\(parts.year ?? 0)-\(Self.twoDigits(parts.month ?? 0))-\(Self.twoDigits(parts.day ?? 0))"
        let when = "\(day) \(clockTime(date, in: timeZone))"
        return text("恢复时间：\(when)", "Available again: \(when)")
    }

    /// The time left as shown: "剩余 23:59:59" / "23:59:59 left".
    public func holdRemaining(seconds: Int) -> String {
        let clock = "\(seconds / 3600):\(Self.twoDigits(seconds % 3600 / 60)):\(Self.twoDigits(seconds % 60))"
        return text("剩余 \(clock)", "\(clock) left")
    }

    /// The time left in words for VoiceOver, in minutes rounded up: "剩余23小时59分钟" /
    /// "23 hours 59 minutes left".
    public func holdRemainingLabel(seconds: Int) -> String {
        let minutes = (seconds + 59) / 60
        let (hours, rest) = (minutes / 60, minutes % 60)
        var zhHans = "剩余"
        var en: [String] = []
        if hours > 0 {
            zhHans += "\(hours)小时"
            en.append(hours == 1 ? "1 hour" : "\(hours) hours")
        }
        if rest > 0 || hours == 0 {
            zhHans += "\(rest)分钟"
            en.append(rest == 1 ? "1 minute" : "\(rest) minutes")
        }
        return text(zhHans, en.joined(separator: " ") + " left")
    }

    /// "关闭" / "Close" on the hold page: ends the page as a cancel.
    public var close: String { text("关闭", "Close") }

    /// What "关闭" / "Close" does on the hold page.
    public var closeHint: String {
        text("关闭页面，操作不会执行", "Closes the page. The action will not be carried out.")
    }

    /// The hold is over while the page was open: "暂停已结束，请重新验证" / "The pause is over. Please start again.".
    public var holdEnded: String {
        text("暂停已结束，请重新验证", "The pause is over. Please start again.")
    }

    private static func twoDigits(_ number: Int) -> String {
        (number < 10 ? "0" : "") + "\(number)"
    }

    private func text(_ zhHans: String, _ en: String) -> String {
        switch language {
        case .zhHans: zhHans
        case .en: en
        }
    }
}

/// What a hold pauses, named for people: the actions an exchange usually holds (`LATCH_HOLD_ACTIONS`'
/// examples), else "此操作" / "this action".
struct HeldAction {
    let zhHans: String
    /// The English subject with its verb: "withdrawals are".
    let enSubject: String
    /// The English title word: "Withdrawals".
    let enTitle: String

    init(_ action: String) {
        switch action {
        case "withdrawal", "withdraw":
            (zhHans, enSubject, enTitle) = ("提现", "withdrawals are", "Withdrawals")
        case "internal_transfer", "transfer":
            (zhHans, enSubject, enTitle) = ("转账", "transfers are", "Transfers")
        case "view_private_key":
            (zhHans, enSubject, enTitle) = ("查看私钥", "viewing the private key is", "Private Key Viewing")
        default:
            (zhHans, enSubject, enTitle) = ("此操作", "this action is", "Action")
        }
    }
}
