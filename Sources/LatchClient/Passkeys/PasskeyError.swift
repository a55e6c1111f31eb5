import LatchCore

/// Why a passkey call of ``LatchClient`` failed, with the server's answers that call for their own
/// handling told apart.
///
///     do {
///         try await client.registerPasskey(name: "iPhone", authenticator: passkeys)
///     } catch PasskeyError.verificationRequired(let action, let parameters) {
///         // The session signed in more than 10 minutes ago: verify `add_passkey` first, then
///         // call again with the verification token.
///     } catch PasskeyError.lastWayIn {
///         showCannotRemoveOnlySignIn()
///     }
public enum PasskeyError: Error, Sendable, CustomStringConvertible {
    /// 403 VERIFICATION_REQUIRED: the session signed in more than 10 minutes ago. Verify `action`
    /// with `parameters` (``LatchClient/verify(_:authenticator:keys:presenter:language:timeZone:)``)
    /// and call again with the proof's token.
    case verificationRequired(action: String, parameters: [String: String])
    /// 409 `last_sign_in_method`: this passkey is the account's only way to sign in.
    case lastWayIn(message: String)
    /// 409 `credential_exists`, or the authenticator already holds one of `excludeCredentials`.
    case alreadyRegistered
    /// 409 LIMIT_REACHED: the account has as many passkeys as latchd allows.
    case limitReached
    /// 404: the passkey does not exist (or is another account's).
    case notFound
    /// The server refused the credential or assertion (AUTH_001, or VALIDATION_FAILED on
    /// `credential` / `challenge_id`), with its reasons, e.g. `origin_mismatch`, `challenge_unknown_or_used`.
    case rejected(reasons: [String], message: String)
    /// The device's authenticator gave no answer (cancelled, no passkey here, …).
    case authenticator(PasskeyAuthenticatorError)
    /// Any other failure, as the rest of the client reports it.
    case client(LatchClientError)

    /// The `add_passkey` verification action.
    public static let addAction = VerificationAction.addPasskey.rawValue
    /// The `remove_passkey` verification action (parameters `{passkey_id}`).
    public static let removeAction = VerificationAction.removePasskey.rawValue
    /// The verification action that renames a passkey more than 10 minutes after signing in
    /// (parameters `{passkey_id}`).
    public static let renameAction = VerificationAction.renamePasskey.rawValue

    public var description: String {
        switch self {
        case .verificationRequired(let action, _): "verification of \(action) required"
        case .lastWayIn: "the account's last way to sign in"
        case .alreadyRegistered: "the passkey is already registered"
        case .limitReached: "too many passkeys"
        case .notFound: "passkey not found"
        case .rejected(let reasons, _): "refused (\(reasons.joined(separator: ", ")))"
        case .authenticator(let error): "authenticator: \(error)"
        case .client(let error): error.description
        }
    }

    /// `error` as a passkey call reports it; `verification` is the action and parameters a 403
    /// VERIFICATION_REQUIRED asks to verify (nil where the call needs none).
    static func from(
        _ error: any Error, verification: (action: String, parameters: [String: String])? = nil
    ) -> any Error {
        switch error {
        case let error as PasskeyAuthenticatorError:
            return error == .alreadyRegistered ? PasskeyError.alreadyRegistered : PasskeyError.authenticator(error)
        case let error as LatchClientError:
            guard case .server(let server) = error else { return PasskeyError.client(error) }
            let reasons = server.reasons ?? []
            switch server.code {
            case .verificationRequired?:
                guard let verification else { return PasskeyError.client(error) }
                return PasskeyError.verificationRequired(
                    action: verification.action, parameters: verification.parameters)
            case .conflict? where reasons.contains("last_sign_in_method"):
                return PasskeyError.lastWayIn(message: server.message)
            case .conflict? where reasons.contains("credential_exists"):
                return PasskeyError.alreadyRegistered
            case .limitReached?:
                return PasskeyError.limitReached
            case .notFound?:
                return PasskeyError.notFound
            case .wrongCredentials?:
                return PasskeyError.rejected(reasons: reasons, message: server.message)
            case .validationFailed? where server.field == "credential" || server.field == "challenge_id":
                return PasskeyError.rejected(reasons: reasons, message: server.message)
            default:
                return PasskeyError.client(error)
            }
        default:
            return error
        }
    }
}
