/// A way to sign in to an account (C1), by its name on the wire: the `provider` of an identity, of
/// `POST /v1/me/identities` and of `DELETE /v1/me/identities/{provider}`.
public enum SignInProvider: String, Codable, Sendable, CaseIterable {
    /// The account's email address with its password.
    case email
    /// Sign in with Apple.
    case apple
    /// WeChat OAuth.
    case wechat
    /// A phone number proven by a texted code.
    case phone

    /// Whether this way is a linked identity held by another party (Apple, WeChat, a phone number), as
    /// opposed to the account's own email.
    public var isLinkedIdentity: Bool { self != .email }
}
