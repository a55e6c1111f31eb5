import LatchCore

/// Where the user stands (C7), as ``LatchClient/state`` reports it.
public enum SessionState: Sendable, Equatable {
    /// No session: never signed in, signed out, or the server ended the session (AUTH_004 on refresh).
    case signedOut
    /// A session for this user; its tokens are in the vault.
    case signedIn(UserInfo)
    /// The session ran out by itself (its refresh token outlived its 30 days): the tokens are gone and
    /// the app shows sign-in with "登录已过期" / "Your session has expired".
    case expired

    /// The signed-in user, if any.
    public var user: UserInfo? {
        if case .signedIn(let user) = self { return user }
        return nil
    }

    /// Whether a user is signed in.
    public var isSignedIn: Bool { user != nil }
}

/// What ``LatchClient/restoreSession()`` found at launch.
public enum SessionRestoration: Sendable, Equatable {
    /// The stored session is back (refreshed when it had less than 5 minutes left, if the network allowed).
    case signedIn(UserInfo)
    /// Nothing stored, or the server said the stored session is over: show sign-in.
    case signedOut
    /// The stored session had run out (its refresh token expired): show sign-in, saying so.
    case expired
    /// The vault cannot be read now (the device is locked). Nothing was deleted and the state was not
    /// changed: call `restoreSession()` again later (e.g. when protected data becomes available).
    case vaultUnavailable
}
