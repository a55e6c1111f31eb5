import Foundation
import LatchCore

/// A failed verification call (`POST /v1/verifications`, `…/attempts` or `…/email-code`), as the flow needs it.
///
/// Environments throw it; anything else they throw counts as `.network`. Build it from an error
/// answer with `init(status:body:)`:
///
///     throw VerificationServerFailure(status: response.status, body: try decoder.decode(APIErrorBody.self, from: data))
public enum VerificationServerFailure: Error, Sendable, Equatable {
    /// AUTH_003: the answer was wrong. `attemptsRemaining` is what the server allows on this
    /// verification (`0`: it is used up and a new one must be opened).
    case wrongAnswer(attemptsRemaining: Int?)
    /// AUTH_002: this method is locked until the given time.
    case locked(until: Date)
    /// The verification is gone (unknown, already completed, expired): open a new one.
    case verificationGone
    /// NO_VERIFICATION_METHOD: the user has no method at all.
    case noVerificationMethod
    /// AUTH_004: the session is over.
    case sessionExpired
    /// SECURITY_HOLD (issue 19 §2): the action is paused after a recent security change; the page shows
    /// the hold instead of the methods.
    case securityHold(VerificationHold)
    /// POLICY_LIMIT (issue 30): the action would pass a limit of the operator's policy; the page shows the
    /// limit instead of the methods.
    case policyLimit(VerificationPolicyLimit)
    /// NEW_VALUE_LOCKED (issue 30): a new value of the action (a withdrawal address …) is locked for a
    /// while; the page counts down to its end instead of showing the methods.
    case newValueLocked(VerificationNewValueLock)
    /// RATE_LIMITED with `retry_after` (an emailed code asked for again too soon, issue 30): wait that
    /// many seconds. Without `retry_after` the answer is `.other`.
    case rateLimited(retryAfter: Int)
    /// The method of the answer does not count here (422 `method` `already_passed` / `not_offered`, issue 30
    /// §3): the page says so and offers the other methods.
    case methodRefused(VerificationMethodRefusal)
    /// No answer arrived (offline, timeout, TLS failure).
    case network
    /// Any other answer (rate limited without `retry_after`, server error …), with the server's code.
    case other(code: String)

    /// The failure an error answer describes.
    public init(status: Int, body: APIErrorBody) {
        self.init(status: status, code: body.error, details: body.details)
    }

    /// The failure a `LatchClient` call's server error describes.
    public init(_ error: LatchServerError) {
        self.init(status: error.status, code: error.rawCode, details: error.details)
    }

    private init(status: Int, code: String, details: LatchErrorDetails) {
        switch LatchErrorCode(rawValue: code) {
        case .wrongCode:
            self = .wrongAnswer(attemptsRemaining: details.attemptsRemaining)
        case .locked:
            self = details.lockedUntil.map { .locked(until: $0) } ?? .other(code: code)
        case .sessionExpired:
            self = .sessionExpired
        case .noVerificationMethod:
            self = .noVerificationMethod
        case .notFound, .conflict, .verificationInvalid:
            self = .verificationGone
        case .securityHold:
            self =
                details.holdUntil.map {
                    .securityHold(
                        VerificationHold(action: details.action ?? "", reason: details.reason ?? "", holdUntil: $0))
                } ?? .other(code: code)
        case .policyLimit:
            self = .policyLimit(
                VerificationPolicyLimit(
                    unit: details.unit ?? "", limit: details.limit ?? "", remaining: details.remaining ?? ""))
        case .newValueLocked:
            self =
                details.lockedUntil.map {
                    .newValueLocked(VerificationNewValueLock(parameter: details.parameter ?? "", lockedUntil: $0))
                } ?? .other(code: code)
        case .rateLimited:
            self = details.retryAfter.map { .rateLimited(retryAfter: $0) } ?? .other(code: code)
        case .validationFailed:
            let refusal =
                details.field == "method" ? details.reasons?.lazy.compactMap(VerificationMethodRefusal.init).first : nil
            self = refusal.map { .methodRefused($0) } ?? .other(code: code)
        case .wrongCredentials, .malformedBody, .payloadTooLarge, .methodNotAllowed,
            .unsupportedMediaType, .verificationRequired, .limitReached, .internalError, .accountDisabled,
            .accountFrozen, .dpopInvalid, .useDPoPNonce:
            self = .other(code: code)
        case nil:
            self = status == 404 ? .verificationGone : .other(code: code)
        }
    }
}
