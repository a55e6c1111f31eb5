import LatchCore

/// Why a LatchClient call failed.
///
///     do {
///         try await client.signIn(email: email, password: password)
///     } catch LatchClientError.signInVerificationRequired(let challenge) {
///         askForCode(challenge)                        // then completeSignIn(challengeID:code:)
///     } catch let error as LatchClientError where error.code == .locked {
///         showLocked(until: error.serverError?.lockedUntil)
///     } catch LatchClientError.accountFrozen(let error) {
///         showFrozen(error.message)                    // "this wasn't me": recover by resetting the password
///     } catch let error as LatchClientError where error.isAccountDisabled {
///         showAccountDisabled()                        // an operator disabled it: contact support
///     } catch LatchClientError.network {
///         offerRetry()                                 // C11: network errors suggest a retry
///     }
public enum LatchClientError: Error, Sendable, CustomStringConvertible {
    /// The server refused, in its error format: the code (AUTH_001 …), message and details.
    case server(LatchServerError)
    /// The sign-in needs a code first (C8, an unusual sign-in: 403 VERIFICATION_REQUIRED with a challenge).
    case signInVerificationRequired(SignInChallenge)
    /// The account is frozen (403 ACCOUNT_FROZEN, issue 19 §3: "this wasn't me"): every sign-in and refresh
    /// is refused until the owner resets the password by email code (with the 2FA code when 2FA is on).
    /// The server's message says how to recover.
    case accountFrozen(LatchServerError)
    /// No HTTP answer arrived: offline, timed out, TLS or certificate pinning refused the server.
    case network(any Error)
    /// An answer this SDK cannot read (not the error format, or a success body that does not decode).
    case unexpected(status: Int)
    /// There is no session (never signed in, signed out, or signed out while this call was waiting).
    case notSignedIn
    /// The vault cannot be read or written right now (a locked device); nothing was lost, try again later.
    case vaultUnavailable

    /// The server's code, when the server answered with one this SDK knows.
    public var code: LatchErrorCode? {
        switch self {
        case .server(let error): error.code
        case .signInVerificationRequired: .verificationRequired
        case .accountFrozen: .accountFrozen
        case .network, .unexpected, .notSignedIn, .vaultUnavailable: nil
        }
    }

    /// The server's error, when it answered in its error format.
    public var serverError: LatchServerError? {
        switch self {
        case .server(let error), .accountFrozen(let error): error
        case .signInVerificationRequired, .network, .unexpected, .notSignedIn, .vaultUnavailable: nil
        }
    }

    /// Whether the session is over (AUTH_004): sign in again.
    public var isSessionExpired: Bool { code == .sessionExpired }

    /// Whether a bearer session's refresh was refused because latchd now requires DPoP-bound sessions
    /// (400 DPOP_INVALID `session_not_bound`, `LATCH_DPOP=required`, issue 31): the session is over.
    public var isSessionNotBound: Bool {
        code == .dpopInvalid && serverError?.reasons?.contains("session_not_bound") == true
    }

    /// Whether an operator disabled the account (403 ACCOUNT_DISABLED, issue 12): no sign-in works
    /// until it is enabled again, so say so (`code.message(in:)` has the words) instead of offering a retry.
    ///
    ///     } catch let error as LatchClientError where error.isAccountDisabled {
    ///         showAccountDisabled(LatchErrorCode.accountDisabled.message(in: .zhHans))
    ///     }
    public var isAccountDisabled: Bool { code == .accountDisabled }

    public var description: String {
        switch self {
        case .server(let error): "server error \(error)"
        case .signInVerificationRequired(let challenge):
            "sign-in needs a code (challenge \(challenge.id), \(challenge.method))"
        case .accountFrozen(let error): "account frozen \(error)"
        case .network(let error): "network error: \(error)"
        case .unexpected(let status): "unexpected answer (HTTP \(status))"
        case .notSignedIn: "not signed in"
        case .vaultUnavailable: "the token vault is unavailable (device locked?)"
        }
    }
}
