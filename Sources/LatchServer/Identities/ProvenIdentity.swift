import Foundation
import LatchCore

/// A person proven by Apple, WeChat or an SMS code: the identity to sign in with or link.
struct ProvenIdentity: Sendable {
    let provider: SignInProvider
    let subject: String
    /// Apple's email (normalised), possibly a private-relay address.
    var email: String? = nil
    /// Whether Apple says the email is verified.
    var emailVerified = false
    /// A name for a new account (the app's `full_name` on the first Apple sign-in, WeChat's nickname).
    var nickname: String? = nil
    /// Apple, when the app sent an `authorization_code`: Apple's refresh token, to keep (sealed) for revocation.
    var appleRefreshToken: String? = nil
    /// Apple: the client id the identity token (and the refresh token) were issued to.
    var appleClientID: String? = nil
}
