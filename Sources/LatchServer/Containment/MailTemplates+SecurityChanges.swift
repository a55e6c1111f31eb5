import LatchCore

extension MailTemplates {
    /// The notice of a change that has no mail of its own (issue 19 §3: every security change is a
    /// notice, sent with a freeze link by `LatchServices.sendSecurityNotice`), its text chosen by the
    /// change's kind (issue 44 §2); nil for a kind with its own mail or none. `toOtherAddress`: to the
    /// address removed before a new one was added, or to the address removed.
    static func securityChange(
        _ kind: LatchServer.SecurityChange.Kind, deviceName: String? = nil, toOtherAddress: Bool = false,
        language: LatchLanguage
    ) -> Mail? {
        let text: String? =
            switch (kind, language) {
            case (.totpAdded, .zhHans): "你的账号刚刚开启了两步验证（身份验证器）。此后登录新设备和提现都可能需要该验证器的验证码。"
            case (.totpAdded, .en):
                "Two-step verification (an authenticator app) was just turned on for your account. Its codes may be asked for on new devices and for withdrawals from now on."
            case (.fundPasswordAdded, .zhHans): "你的账号刚刚设置了资金密码，此后可用它验证提现等操作。"
            case (.fundPasswordAdded, .en):
                "A fund password was just set for your account; it can verify withdrawals from now on."
            case (.emailAdded, .zhHans) where toOtherAddress: "曾使用此邮箱的 Latch 账号刚刚绑定了一个新的邮箱。"
            case (.emailAdded, .en) where toOtherAddress:
                "A new email address was just added to the Latch account that used this address."
            case (.emailRemoved, .zhHans): "此邮箱刚刚从你的 Latch 账号中移除，用它登录的密码也一并移除。此后安全通知不再发送到此邮箱。"
            case (.emailRemoved, .en):
                "This email address was just removed from your Latch account, and with it the password that signed in with it. Security notices no longer go to this address."
            case (.phoneRemoved, .zhHans): "你的账号刚刚解绑了手机号。"
            case (.phoneRemoved, .en): "A phone number was just removed from your account."
            case (.identityUnlinked, .zhHans): "你的账号刚刚解除关联了一种登录方式。"
            case (.identityUnlinked, .en): "A way to sign in was just unlinked from your account."
            case (.deviceKeyRemoved, .zhHans) where deviceName != nil: "设备“\(deviceName ?? "")”刚刚关闭了面容登录 / 指纹登录。"
            case (.deviceKeyRemoved, .zhHans): "一台设备刚刚关闭了面容登录 / 指纹登录。"
            case (.deviceKeyRemoved, .en) where deviceName != nil:
                "Face ID / Touch ID sign-in was just turned off for the device \"\(deviceName ?? "")\"."
            case (.deviceKeyRemoved, .en): "Face ID / Touch ID sign-in was just turned off for a device."
            case (.unusualSignInCheckTurnedOff, .zhHans): "你的账号刚刚关闭了“异常登录验证”，此后在新设备上登录将不再要求邮箱验证码。"
            case (.unusualSignInCheckTurnedOff, .en):
                "Verification of unusual sign-ins was just turned off for your account; a new device will no longer be asked for a mailed code."
            case (.otherSessionsEnded, .zhHans): "你的账号刚刚在一台设备上退出了其他所有设备。"
            case (.otherSessionsEnded, .en): "One of your devices just signed out every other device of your account."
            case (.sessionEnded, .zhHans): "你的账号刚刚在一台设备上让另一台设备退出登录。"
            case (.sessionEnded, .en): "One of your devices just signed another device out of your account."
            case (.totpRemoved, .zhHans): "你的账号刚刚关闭了两步验证。"
            case (.totpRemoved, .en): "Two-step verification was just turned off for your account."
            case (.fundPasswordChanged, .zhHans): "你的资金密码刚刚被更改。"
            case (.fundPasswordChanged, .en): "Your fund password was just changed."
            case (.emailAdded, .zhHans): "你的账号刚刚绑定了此邮箱。"
            case (.emailAdded, .en): "This email address was just added to your account."
            case (.phoneAdded, .zhHans): "你的账号刚刚绑定了新的手机号。"
            case (.phoneAdded, .en): "A phone number was just linked to your account."
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
            case (.passwordReset, _), (.passwordChanged, _), (.passkeyAdded, _), (.passkeyRemoved, _),
                (.deviceKeyAdded, _), (.totpResetByOperator, _), (.fundPasswordResetByOperator, _),
                (.newValueLocked, _),
                (.frozen, _), (.unfrozen, _):
                nil
            }
        guard let what = text else { return nil }
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

extension MailTemplates {
    /// The notice mail of `change` (issue 28 §1) to the account's address, or to the change's other
    /// address (`toOtherAddress`): one mapping, used by `SecurityChanges.apply`. Nil for a change without a notice.
    static func notice(of change: LatchServer.SecurityChange, toOtherAddress: Bool = false, language: LatchLanguage)
        -> Mail?
    {
        switch change.kind {
        case .passwordReset:
            let outcome =
                change.reset ?? LatchServer.SecurityChange.ResetOutcome(ended: SecurityReset.Ended(), kept: [])
            return passwordWasReset(ended: outcome.ended, kept: outcome.kept, language: language)
        case .passwordChanged: return passwordChanged(language: language)
        case .passkeyAdded: return passkeyAdded(name: change.name ?? "", language: language)
        case .passkeyRemoved: return passkeyRemoved(name: change.name ?? "", language: language)
        case .deviceKeyAdded: return deviceBound(deviceName: change.name, language: language)
        case .totpResetByOperator: return totpResetByOperator(language: language)
        case .fundPasswordResetByOperator: return fundPasswordResetByOperator(language: language)
        case .newValueLocked:
            return newValueLocked(
                change.name ?? "", action: change.lockedAction ?? "", until: change.lockedUntil,
                language: language)
        case .frozen, .unfrozen: return nil
        default:
            return securityChange(
                change.kind, deviceName: change.name, toOtherAddress: toOtherAddress, language: language)
        }
    }
}
