import Foundation
import LatchCore

/// The texts of the approval screen (issue 43 §3), in Simplified Chinese and English.
public struct ApprovalStrings: Sendable, Equatable {
    public let language: LatchLanguage

    public init(_ language: LatchLanguage) {
        self.language = language
    }

    /// "正在加载…" / "Loading…".
    public var loading: String { language.pick("正在加载…", "Loading…") }
    /// The sign-in request's title.
    public var signInTitle: String { language.pick("登录请求", "Sign-In Request") }
    /// An action's title.
    public var actionTitle: String { language.pick("操作确认", "Approve an Action") }
    /// "Is it you signing in on …?"
    public func signInQuestion(client: String?, platform: String?) -> String {
        let who = [client, platform].compactMap { $0 }.joined(separator: " · ")
        return who.isEmpty
            ? language.pick("是您本人在登录吗？", "Is it you signing in?")
            : language.pick("是您本人在 \(who) 上登录吗？", "Is it you signing in on \(who)?")
    }
    /// "Is it you asking to …?"
    public func actionQuestion(_ action: String) -> String {
        language.pick("是您本人发起的\(actionName(action))吗？", "Did you ask for this \(actionName(action))?")
    }
    /// A known action's name, else the action as sent.
    public func actionName(_ action: String) -> String {
        switch action {
        case "withdrawal": return language.pick("提现", "withdrawal")
        case "change_password": return language.pick("修改密码", "password change")
        case "add_passkey": return language.pick("添加通行密钥", "new passkey")
        default: return action
        }
    }
    /// "设备：…" / "Device: …".
    public func device(_ name: String) -> String { language.pick("设备：\(name)", "Device: \(name)") }
    /// "IP 地址：…" / "IP address: …".
    public func address(_ ip: String) -> String { language.pick("IP 地址：\(ip)", "IP address: \(ip)") }
    /// "时间：…" / "Time: …".
    public func time(_ text: String) -> String { language.pick("时间：\(text)", "Time: \(text)") }
    /// Whether the asking screen is on this phone's network.
    public func network(same: Bool) -> String {
        same
            ? language.pick("与本机处于同一网络", "On the same network as this phone")
            : language.pick("与本机不在同一网络", "Not on this phone's network")
    }
    /// "金额：…" / "Amount: …".
    public func amount(_ amount: String, unit: String?) -> String {
        let text = [amount, unit].compactMap { $0 }.joined(separator: " ")
        return language.pick("金额：\(text)", "Amount: \(text)")
    }
    /// "地址：…" / "To: …".
    public func target(_ target: String) -> String { language.pick("地址：\(target)", "To: \(target)") }
    /// What to do with the numbers.
    public var pickNumber: String {
        language.pick("请选择另一屏幕上显示的数字", "Pick the number shown on the other screen.")
    }
    /// "拒绝" / "Deny".
    public var deny: String { language.pick("拒绝", "Deny") }
    /// "不是我本人操作" / "This Wasn't Me".
    public var notMe: String { language.pick("不是我本人操作，冻结账号", "This Wasn't Me: Freeze the Account") }
    /// The Face ID step's reason for a sign-in.
    public var verifySignInReason: String { language.pick("批准新设备登录", "Approve the sign-in") }
    /// While the decision is on its way.
    public var sending: String { language.pick("正在提交…", "Sending…") }
    /// "Approved".
    public var approvedSignIn: String { language.pick("已批准登录", "Sign-in approved.") }
    /// The action was approved.
    public var approvedAction: String { language.pick("已批准该操作", "Approved.") }
    /// The user denied it.
    public var denied: String { language.pick("已拒绝", "Denied.") }
    /// The account was frozen from the screen.
    public var frozen: String {
        language.pick("账号已冻结，所有设备均已退出登录", "The account is frozen and every device is signed out.")
    }
    /// The approval ran out (or was ended elsewhere).
    public var expired: String {
        language.pick("请求已过期，请在另一屏幕上重新发起", "The request expired. Start again on the other screen.")
    }
    /// A wrong number ended it for good.
    public var wrongNumber: String {
        language.pick(
            "数字不匹配，请求已终止。如果不是您本人操作，请冻结账号",
            "The number did not match, so the request was ended. If this wasn't you, freeze the account.")
    }
    /// The verification page could not go on (the session ended, no way to verify here).
    public var verificationFailed: String {
        language.pick("无法完成验证，请求未批准", "The verification could not be completed; nothing was approved.")
    }
    /// "确定" / "OK".
    public var done: String { language.pick("确定", "OK") }
}
