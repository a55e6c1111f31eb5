import Foundation
import LatchCore
import Vapor

/// A domain error with its stable code, HTTP status and details; the error middleware writes it
/// in the API's error format.
public struct LatchError: Error, Sendable, CustomStringConvertible {
    public var code: LatchErrorCode
    public var status: HTTPResponseStatus
    public var field: String?
    public var reasons: [String]?
    public var attemptsRemaining: Int?
    public var lockedUntil: Date?
    public var retryAfter: Int?
    public var challengeId: String?
    public var method: String?
    /// An explanation replacing the code's standard message (already in the caller's language).
    public var message: String?

    public init(
        _ code: LatchErrorCode, status: HTTPResponseStatus, field: String? = nil, reasons: [String]? = nil,
        attemptsRemaining: Int? = nil, lockedUntil: Date? = nil, retryAfter: Int? = nil, challengeId: String? = nil,
        method: String? = nil, message: String? = nil
    ) {
        self.code = code
        self.status = status
        self.field = field
        self.reasons = reasons
        self.attemptsRemaining = attemptsRemaining
        self.lockedUntil = lockedUntil
        self.retryAfter = retryAfter
        self.challengeId = challengeId
        self.method = method
        self.message = message
    }

    public var description: String { "\(code.rawValue) (\(status.code))" }

    /// AUTH_001: wrong email or password (identical for unknown accounts).
    static func wrongCredentials(attemptsRemaining: Int? = nil) -> LatchError {
        LatchError(.wrongCredentials, status: .unauthorized, attemptsRemaining: attemptsRemaining)
    }
    /// AUTH_002: locked until `until`.
    static func locked(until: Date) -> LatchError { LatchError(.locked, status: .locked, lockedUntil: until) }
    /// AUTH_003: wrong or dead code.
    static func wrongCode(attemptsRemaining: Int) -> LatchError {
        LatchError(.wrongCode, status: .badRequest, attemptsRemaining: attemptsRemaining)
    }
    /// AUTH_004: the session is over.
    static let sessionExpired = LatchError(.sessionExpired, status: .unauthorized)
    /// AUTH_002 for one step-up method (fund password or TOTP), not for the account.
    static func methodLocked(until: Date, language: LatchLanguage) -> LatchError {
        LatchError(
            .locked, status: .locked, lockedUntil: until,
            message: language == .zhHans ? "该验证方式已被锁定，请稍后再试或使用其他方式验证" : "This verification method is locked. Try again later or use another method.")
    }
    /// 400 naming a missing field.
    static func missing(_ field: String) -> LatchError {
        LatchError(.validationFailed, status: .badRequest, field: field, reasons: ["missing"])
    }
    /// 403 ACCOUNT_DISABLED: an operator disabled the account; no grant signs it in.
    static let accountDisabled = LatchError(.accountDisabled, status: .forbidden)
    /// 404.
    static let notFound = LatchError(.notFound, status: .notFound)
    /// 400/422 naming the field.
    static func invalid(_ field: String, _ reasons: [String]? = nil) -> LatchError {
        LatchError(.validationFailed, status: .unprocessableEntity, field: field, reasons: reasons)
    }
    /// 503 INTERNAL_ERROR (`reasons` `["delivery_queue_full"]`, `retry_after`): a mail or SMS could not
    /// even be queued. Nothing was sent; asking again later works.
    static let deliveryQueueFull = LatchError(
        .internalError, status: .serviceUnavailable, reasons: ["delivery_queue_full"], retryAfter: 30)
    /// 429 with the seconds to wait.
    static func rateLimited(retryAfter: Int) -> LatchError {
        LatchError(.rateLimited, status: .tooManyRequests, retryAfter: max(1, retryAfter))
    }
}
