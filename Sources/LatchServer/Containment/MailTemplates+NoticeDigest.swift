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
        case (.change(.passwordReset), .zhHans): "密码通过邮件验证码重置"
        case (.change(.passwordReset), .en): "Your password was reset with a mailed code"
        case (.change(.passwordChanged), .zhHans): "密码被更改"
        case (.change(.passwordChanged), .en): "Your password was changed"
        case (.change(.newValueLocked), .zhHans): "新的提现地址进入等待期"
        case (.change(.newValueLocked), .en): "A new address started its waiting period"
        case (.change(.passkeyAdded), .zhHans): "添加了通行密钥"
        case (.change(.passkeyAdded), .en): "A passkey was added"
        case (.change(.passkeyRemoved), .zhHans): "删除了通行密钥"
        case (.change(.passkeyRemoved), .en): "A passkey was removed"
        case (.change(.deviceKeyAdded), .zhHans): "绑定了设备密钥（生物识别登录）"
        case (.change(.deviceKeyAdded), .en): "A device key (biometric sign-in) was added"
        case (.change(.totpRemoved), .zhHans): "关闭了两步验证"
        case (.change(.totpRemoved), .en): "Two-step verification was turned off"
        case (.change(.totpResetByOperator), .zhHans): "客服移除了两步验证"
        case (.change(.totpResetByOperator), .en): "An operator removed two-step verification"
        case (.change(.fundPasswordChanged), .zhHans): "资金密码被更改"
        case (.change(.fundPasswordChanged), .en): "Your fund password was changed"
        case (.change(.fundPasswordResetByOperator), .zhHans): "客服移除了资金密码"
        case (.change(.fundPasswordResetByOperator), .en): "An operator removed your fund password"
        case (.change(.emailAdded), .zhHans): "绑定了邮箱"
        case (.change(.emailAdded), .en): "An email address was added"
        case (.change(.phoneAdded), .zhHans): "绑定了新的手机号"
        case (.change(.phoneAdded), .en): "A phone number was linked"
        case (.change(.identityLinked), .zhHans): "关联了新的登录方式"
        case (.change(.identityLinked), .en): "A new way to sign in was linked"
        case (.change(.antiPhishingCodeSet), .zhHans): "防钓鱼码被设置或更改"
        case (.change(.antiPhishingCodeSet), .en): "Your anti-phishing code was set or changed"
        case (.change(.antiPhishingCodeRemoved), .zhHans): "防钓鱼码被删除"
        case (.change(.antiPhishingCodeRemoved), .en): "Your anti-phishing code was removed"
        case (.change(.newDeviceNoticeTurnedOff), .zhHans): "关闭了“新设备登录时通知”"
        case (.change(.newDeviceNoticeTurnedOff), .en): "Sign-in notices from new devices were turned off"
        case (.change(.deviceKeyRemoved), .zhHans): "一台设备关闭了面容登录 / 指纹登录"
        case (.change(.deviceKeyRemoved), .en): "Face ID / Touch ID sign-in was turned off for a device"
        case (.change(.totpAdded), .zhHans): "开启了两步验证"
        case (.change(.totpAdded), .en): "Two-step verification was turned on"
        case (.change(.fundPasswordAdded), .zhHans): "设置了资金密码"
        case (.change(.fundPasswordAdded), .en): "A fund password was set"
        case (.change(.emailRemoved), .zhHans): "移除了邮箱"
        case (.change(.emailRemoved), .en): "An email address was removed"
        case (.change(.phoneRemoved), .zhHans): "解绑了手机号"
        case (.change(.phoneRemoved), .en): "A phone number was removed"
        case (.change(.identityUnlinked), .zhHans): "解除关联了一种登录方式"
        case (.change(.identityUnlinked), .en): "A way to sign in was unlinked"
        case (.change(.unusualSignInCheckTurnedOff), .zhHans): "关闭了“异常登录验证”"
        case (.change(.unusualSignInCheckTurnedOff), .en): "Verification of unusual sign-ins was turned off"
        case (.change(.otherSessionsEnded), .zhHans): "退出了其他所有设备"
        case (.change(.otherSessionsEnded), .en): "Every other device was signed out"
        case (.change(.sessionEnded), .zhHans): "一台设备被退出登录"
        case (.change(.sessionEnded), .en): "A device was signed out"
        // A freeze and an unfreeze mail no notice (`SecurityChange.silentReason`); named for completeness.
        case (.change(.frozen), .zhHans): "账号被冻结"
        case (.change(.frozen), .en): "Your account was frozen"
        case (.change(.unfrozen), .zhHans): "账号已解冻"
        case (.change(.unfrozen), .en): "Your account was unfrozen"
        }
    }
}
