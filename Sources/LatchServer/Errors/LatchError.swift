import Foundation
import HTTPTypes
import LatchCore
import NIOHTTP1

/// A domain error with its stable code, HTTP status and details; the error middleware writes it
/// in the API's error format.
@dynamicMemberLookup
public struct LatchError: Error, Sendable, CustomStringConvertible {
    public var code: LatchErrorCode
    public var status: HTTPResponse.Status
    /// `field`, `reasons`, `attempts_remaining`, … (shared with the client's `LatchServerError`).
    public var details: LatchErrorDetails
    /// An explanation replacing the code's standard message (already in the caller's language).
    public var message: String?
    /// The `WWW-Authenticate` header of a DPoP refusal at a resource (RFC 9449 §7.1); nil: none.
    public var authenticate: String?
    /// The `DPoP-Nonce` header (RFC 9449 §8): the nonce the client must sign its next proof with.
    public var dpopNonce: String?

    /// `status` defaults to the code's (`LatchErrorCode.defaultStatus`).
    public init(
        _ code: LatchErrorCode, status: HTTPResponse.Status? = nil, field: String? = nil, reasons: [String]? = nil,
        attemptsRemaining: Int? = nil, lockedUntil: Date? = nil, retryAfter: Int? = nil, challengeId: String? = nil,
        method: String? = nil, message: String? = nil
    ) {
        self.code = code
        self.status = status ?? Self.status(code.defaultStatus)
        self.details = LatchErrorDetails(
            field: field, reasons: reasons, attemptsRemaining: attemptsRemaining, lockedUntil: lockedUntil,
            retryAfter: retryAfter, challengeId: challengeId, method: method)
        self.message = message
    }

    /// Each of ``LatchErrorDetails``' members (`field`, `reasons`, `attemptsRemaining`, `lockedUntil`,
    /// `retryAfter`, `challengeId`, `method`), read and written as if it were this type's own.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<LatchErrorDetails, Value>) -> Value {
        get { details[keyPath: keyPath] }
        set { details[keyPath: keyPath] = newValue }
    }

    public var description: String { "\(code.rawValue) (\(status.code))" }

    /// The status `code` with the reason phrase latchd has always sent (NIO's, e.g. "Unprocessable
    /// Entity" and "Payload Too Large" where HTTP types says "Content"), which the wire goldens pin.
    public static func status(_ code: Int) -> HTTPResponse.Status {
        HTTPResponse.Status(code: code, reasonPhrase: HTTPResponseStatus(statusCode: code).reasonPhrase)
    }

    /// AUTH_001: wrong email or password (identical for unknown accounts).
    static func wrongCredentials(attemptsRemaining: Int? = nil) -> LatchError {
        LatchError(.wrongCredentials, attemptsRemaining: attemptsRemaining)
    }
    /// AUTH_002: locked until `until`.
    static func locked(until: Date) -> LatchError { LatchError(.locked, lockedUntil: until) }
    /// AUTH_003: wrong or dead code.
    static func wrongCode(attemptsRemaining: Int) -> LatchError {
        LatchError(.wrongCode, attemptsRemaining: attemptsRemaining)
    }
    /// AUTH_004: the session is over.
    static let sessionExpired = LatchError(.sessionExpired)
    /// AUTH_002 for one step-up method (fund password or TOTP), not for the account.
    static func methodLocked(until: Date, language: LatchLanguage) -> LatchError {
        LatchError(.locked, lockedUntil: until, message: ErrorMessage.methodLocked.text(in: language))
    }
    /// 400 naming a missing field.
    static func missing(_ field: String) -> LatchError {
        LatchError(.validationFailed, field: field, reasons: ["missing"])
    }
    /// 403 ACCOUNT_DISABLED: an operator disabled the account; no grant signs it in.
    static let accountDisabled = LatchError(.accountDisabled)
    /// 404.
    static let notFound = LatchError(.notFound)
    /// 400/422 naming the field.
    static func invalid(_ field: String, _ reasons: [String]? = nil) -> LatchError {
        LatchError(.validationFailed, status: Self.status(422), field: field, reasons: reasons)
    }
    /// 503 INTERNAL_ERROR (`reasons` `["delivery_queue_full"]`, `retry_after`): a mail or SMS could not
    /// even be queued. Nothing was sent; asking again later works.
    static let deliveryQueueFull = LatchError(
        .internalError, status: .serviceUnavailable, reasons: ["delivery_queue_full"], retryAfter: 30)
    /// DPOP_INVALID naming the failed check (`reason`): 400 at the token endpoint (RFC 9449 §5: the error
    /// `invalid_dpop_proof`), 401 at a resource with `WWW-Authenticate: DPoP` naming `error` (§7.1).
    static func dpopInvalid(_ reason: String, atTokenEndpoint: Bool, error: String = "invalid_dpop_proof")
        -> LatchError
    {
        var refusal = LatchError(.dpopInvalid, status: atTokenEndpoint ? .badRequest : nil, reasons: [reason])
        if !atTokenEndpoint { refusal.authenticate = #"DPoP error="\#(error)", algs="ES256""# }
        return refusal
    }
    /// USE_DPOP_NONCE with the nonce to sign with (RFC 9449 §8): 400 at the token endpoint, 401 at a resource.
    static func useDPoPNonce(_ nonce: String, atTokenEndpoint: Bool) -> LatchError {
        var refusal = LatchError(.useDPoPNonce, status: atTokenEndpoint ? .badRequest : nil)
        refusal.dpopNonce = nonce
        if !atTokenEndpoint { refusal.authenticate = #"DPoP error="use_dpop_nonce", algs="ES256""# }
        return refusal
    }
    /// 429 with the seconds to wait.
    static func rateLimited(retryAfter: Int) -> LatchError {
        LatchError(.rateLimited, retryAfter: max(1, retryAfter))
    }
}
