import LatchCore

extension AppleRevocation {
    /// Whether the user must stop using Apple ID with the app themselves: the account used Sign in with
    /// Apple, but the server could not revoke the app's authorization.
    public var needsUserAction: Bool {
        switch self {
        case .notPossible: true
        case .revoked, .notLinked: false
        }
    }

    /// What to tell the user after a deletion, or nil when there is nothing to say about Apple.
    public func guidance(in language: LatchLanguage) -> String? {
        switch (self, language) {
        case (.revoked, _), (.notLinked, _):
            nil
        case (.notPossible, .zhHans):
            "账号已注销。请在 iPhone 的“设置”>“你的姓名”>“登录与安全”>“通过 Apple 登录”中找到本应用，并选择“停止使用 Apple ID”。"
        case (.notPossible, .en):
            "Your account was deleted. To stop using your Apple ID with this app, open Settings > your name > Sign-In & Security > Sign in with Apple, choose this app and tap Stop Using Apple ID."
        }
    }
}
