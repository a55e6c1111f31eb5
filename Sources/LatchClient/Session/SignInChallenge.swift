import LatchCore

/// An unusual sign-in (C8) that the server stopped at 403 VERIFICATION_REQUIRED: answer it with
/// ``LatchClient/completeSignIn(challengeID:code:)``.
public struct SignInChallenge: Sendable, Equatable {
    /// How the user gets the code.
    public enum Method: Sendable, Equatable {
        /// A 6-digit code was mailed to the account's address.
        case email
        /// A code from the user's authenticator app (2FA is on).
        case totp
        /// A method this SDK does not know yet, as the server named it.
        case other(String)

        init(serverName: String?) {
            switch serverName.flatMap(LoginChallengeMethod.init(rawValue:)) {
            case .email: self = .email
            case .totp: self = .totp
            case nil: self = .other(serverName ?? "")
            }
        }
    }

    /// The challenge to answer (grant `login_challenge`).
    public var id: String
    public var method: Method

    public init(id: String, method: Method) {
        self.id = id
        self.method = method
    }
}
