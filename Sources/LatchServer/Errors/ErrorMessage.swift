import LatchCore

/// The server's error messages that replace a code's standard one (`LatchErrorCode.message(in:)`),
/// in both languages, in one table.
enum ErrorMessage: Sendable {
    /// AUTH_002 for one step-up method (fund password or TOTP).
    case methodLocked
    /// The account's only way to sign in cannot go: a passkey removed, or an identity unlinked.
    case lastSignInMethod(Removal)
    /// Apple / WeChat / phone sign-in is not set up on this server.
    case providerNotConfigured(SignInProvider)
    /// The provider's proof could not be verified.
    case providerRejected(SignInProvider)
    /// The provider cannot be reached.
    case providerUnavailable(SignInProvider)

    /// How the last sign-in method was to go.
    enum Removal: Sendable { case remove, unlink }

    func text(in language: LatchLanguage) -> String {
        switch (self, language) {
        case (.methodLocked, .zhHans): "该验证方式已被锁定，请稍后再试或使用其他方式验证"
        case (.methodLocked, .en): "This verification method is locked. Try again later or use another method."
        case (.lastSignInMethod(.remove), .zhHans): "这是账号唯一的登录方式，无法删除"
        case (.lastSignInMethod(.unlink), .zhHans): "这是账号唯一的登录方式，无法解除绑定"
        case (.lastSignInMethod, .en): "This is the account's only way to sign in; it cannot be removed."
        case (.providerNotConfigured(let provider), .zhHans): "服务器未开启\(provider.displayName(language))登录"
        case (.providerNotConfigured(let provider), .en):
            "\(provider.displayName(language)) sign-in is not set up on this server."
        case (.providerRejected(let provider), .zhHans): "\(provider.displayName(language))登录验证失败，请重新登录"
        case (.providerRejected(let provider), .en):
            "The \(provider.displayName(language)) sign-in could not be verified. Please sign in again."
        case (.providerUnavailable(let provider), .zhHans): "暂时无法连接\(provider.displayName(language))，请稍后重试"
        case (.providerUnavailable(let provider), .en):
            "\(provider.displayName(language)) cannot be reached right now. Please retry later."
        }
    }
}
