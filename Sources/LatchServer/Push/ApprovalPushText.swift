import LatchCore

/// The visible text of an approval push (issue 43 §2): it names only the kind of action ("Approve a
/// withdrawal in Latch"), never an amount, an address or any other parameter, which the unlocked app
/// fetches. An app's own action that Latch does not know is "an action".
struct ApprovalPushText: Sendable, Equatable {
    let title: String
    let body: String

    init(action: VerificationAction, language: LatchLanguage) {
        title = language == .zhHans ? "Latch 请求批准" : "Approval requested"
        let what = Self.kind(of: action, language: language)
        body = language == .zhHans ? "在 Latch 中批准\(what)" : "Approve \(what) in Latch"
    }

    /// The action's kind, as the body names it ("a withdrawal", "一笔提现").
    static func kind(of action: VerificationAction, language: LatchLanguage) -> String {
        let names: (en: String, zh: String) =
            switch action {
            case .withdrawal: ("a withdrawal", "一笔提现")
            case "internal_transfer", "transfer": ("a transfer", "一笔转账")
            case .bindDevice: ("binding a device", "绑定设备")
            case .unbindDevice: ("removing a device", "解绑设备")
            case .enableTOTP: ("turning on two-step verification", "开启两步验证")
            case .disableTOTP: ("turning off two-step verification", "关闭两步验证")
            case .setFundPassword: ("setting a fund password", "设置资金密码")
            case .changeFundPassword: ("changing the fund password", "修改资金密码")
            case .addPasskey: ("adding a passkey", "添加通行密钥")
            case .renamePasskey: ("renaming a passkey", "重命名通行密钥")
            case .removePasskey: ("removing a passkey", "移除通行密钥")
            case .linkIdentity: ("linking a sign-in method", "绑定登录方式")
            case .unlinkIdentity: ("unlinking a sign-in method", "解绑登录方式")
            case .setAntiPhishingCode: ("setting the anti-phishing code", "设置防钓鱼码")
            case .disableUnusualSignInCheck: ("turning off the unusual sign-in check", "关闭异常登录检查")
            case .disableNewDeviceNotice: ("turning off new-device notices", "关闭新设备登录提醒")
            case .deleteAccount: ("deleting the account", "注销账号")
            case .exportAccount: ("exporting the account's data", "导出账号数据")
            case .approveSignIn: ("a sign-in", "一次登录")
            default: ("an action", "一项操作")
            }
        return language == .zhHans ? names.zh : names.en
    }
}
