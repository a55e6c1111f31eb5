import Foundation
import LatchCore

extension MailTemplates {
    /// The digest of security changes made within the window of the account's last notice mail (issue
    /// 20 §2): one line per change, oldest first, with its time (UTC); sent with the anti-phishing code
    /// and a freeze link like every notice.
    static func noticeDigest(_ changes: [(notice: SecurityNotice, at: Date)], language: LatchLanguage) -> Mail {
        let lines = changes.map { "\(timeText($0.at)) — \(describe($0.notice, language: language))" }
        return switch language {
        case .zhHans:
            Mail(
                subject: "你的 Latch 账号安全设置有 \(changes.count) 项更改",
                blocks: [.text("自上一封安全通知以来，你的账号发生了以下更改（时间为 UTC）：")] + lines.map { .text($0) } + [
                    .text("为保障资金安全，安全设置变更后提现等操作可能暂停一段时间。如果其中有不是你本人的操作，请立即冻结账号。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "\(changes.count) security changes to your Latch account",
                blocks: [
                    .text("Since our last security notice, these changes were made to your account (times in UTC):")
                ]
                    + lines.map { .text($0) } + [
                        .text(
                            "For your security, withdrawals may be paused for a while after a security change. If any of these was not you, freeze your account now."
                        )
                    ],
                language: language)
        }
    }

    /// `2026-11-26 16:40 UTC`.
    private static func timeText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)) UTC"
    }

    /// One change in a line of the digest.
    static func describe(_ notice: SecurityNotice, language: LatchLanguage) -> String {
        switch (notice, language) {
        case (.newDeviceSignIn, .zhHans): "新设备登录了你的账号"
        case (.newDeviceSignIn, .en): "A sign-in from a new device"
        case (.passwordReset, .zhHans): "密码通过邮件验证码重置"
        case (.passwordReset, .en): "Your password was reset with a mailed code"
        case (.passwordChanged, .zhHans): "密码被更改"
        case (.passwordChanged, .en): "Your password was changed"
        case (.newValueLocked, .zhHans): "新的提现地址进入等待期"
        case (.newValueLocked, .en): "A new address started its waiting period"
        case (.passkeyAdded, .zhHans): "添加了通行密钥"
        case (.passkeyAdded, .en): "A passkey was added"
        case (.passkeyRemoved, .zhHans): "删除了通行密钥"
        case (.passkeyRemoved, .en): "A passkey was removed"
        case (.deviceKeyAdded, .zhHans): "绑定了设备密钥（生物识别登录）"
        case (.deviceKeyAdded, .en): "A device key (biometric sign-in) was added"
        case (.totpDisabled, .zhHans): "关闭了两步验证"
        case (.totpDisabled, .en): "Two-step verification was turned off"
        case (.totpResetByOperator, .zhHans): "客服移除了两步验证"
        case (.totpResetByOperator, .en): "An operator removed two-step verification"
        case (.fundPasswordChanged, .zhHans): "资金密码被更改"
        case (.fundPasswordChanged, .en): "Your fund password was changed"
        case (.fundPasswordResetByOperator, .zhHans): "客服移除了资金密码"
        case (.fundPasswordResetByOperator, .en): "An operator removed your fund password"
        case (.emailAdded, .zhHans): "绑定了邮箱"
        case (.emailAdded, .en): "An email address was added"
        case (.phoneLinked, .zhHans): "绑定了新的手机号"
        case (.phoneLinked, .en): "A phone number was linked"
        case (.identityLinked, .zhHans): "关联了新的登录方式"
        case (.identityLinked, .en): "A new way to sign in was linked"
        case (.antiPhishingCodeSet, .zhHans): "防钓鱼码被设置或更改"
        case (.antiPhishingCodeSet, .en): "Your anti-phishing code was set or changed"
        case (.antiPhishingCodeRemoved, .zhHans): "防钓鱼码被删除"
        case (.antiPhishingCodeRemoved, .en): "Your anti-phishing code was removed"
        case (.newDeviceNoticeTurnedOff, .zhHans): "关闭了“新设备登录时通知”"
        case (.newDeviceNoticeTurnedOff, .en): "Sign-in notices from new devices were turned off"
        case (.deviceKeyRemoved, .zhHans): "一台设备关闭了面容登录 / 指纹登录"
        case (.deviceKeyRemoved, .en): "Face ID / Touch ID sign-in was turned off for a device"
        case (.totpAdded, .zhHans): "开启了两步验证"
        case (.totpAdded, .en): "Two-step verification was turned on"
        case (.fundPasswordAdded, .zhHans): "设置了资金密码"
        case (.fundPasswordAdded, .en): "A fund password was set"
        case (.emailRemoved, .zhHans): "移除了邮箱"
        case (.emailRemoved, .en): "An email address was removed"
        case (.phoneRemoved, .zhHans): "解绑了手机号"
        case (.phoneRemoved, .en): "A phone number was removed"
        case (.identityUnlinked, .zhHans): "解除关联了一种登录方式"
        case (.identityUnlinked, .en): "A way to sign in was unlinked"
        case (.unusualSignInCheckTurnedOff, .zhHans): "关闭了“异常登录验证”"
        case (.unusualSignInCheckTurnedOff, .en): "Verification of unusual sign-ins was turned off"
        case (.otherSessionsEnded, .zhHans): "退出了其他所有设备"
        case (.otherSessionsEnded, .en): "Every other device was signed out"
        case (.sessionEnded, .zhHans): "一台设备被退出登录"
        case (.sessionEnded, .en): "A device was signed out"
        }
    }
}
