import Foundation
import LatchCore

/// An error answer from latchd, in the API's error format (`{"error": CODE, "message": …, …details}`).
public struct LatchServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    public var status: Int
    /// The code exactly as sent (`AUTH_001`, …), also when this SDK does not know it yet.
    public var rawCode: String
    /// The human message, in the request's language (zh-Hans or en).
    public var message: String
    /// `field`, `reasons`, `attempts_remaining`, … as the server sent them (shared with the server's
    /// `LatchError`); `retry_after` falls back to the `Retry-After` header.
    public var details: LatchErrorDetails

    public init(
        status: Int, rawCode: String, message: String, field: String? = nil, reasons: [String]? = nil,
        attemptsRemaining: Int? = nil, lockedUntil: Date? = nil, retryAfter: Int? = nil, challengeID: String? = nil,
        method: String? = nil
    ) {
        self.status = status
        self.rawCode = rawCode
        self.message = message
        self.details = LatchErrorDetails(
            field: field, reasons: reasons, attemptsRemaining: attemptsRemaining, lockedUntil: lockedUntil,
            retryAfter: retryAfter, challengeId: challengeID, method: method)
    }

    /// The request field at fault, for validation errors.
    public var field: String? {
        get { details.field }
        set { details.field = newValue }
    }
    /// The rules a field broke (e.g. password policy violations).
    public var reasons: [String]? {
        get { details.reasons }
        set { details.reasons = newValue }
    }
    /// Attempts left before a code dies or a lock starts.
    public var attemptsRemaining: Int? {
        get { details.attemptsRemaining }
        set { details.attemptsRemaining = newValue }
    }
    /// When a lock ends (AUTH_002).
    public var lockedUntil: Date? {
        get { details.lockedUntil }
        set { details.lockedUntil = newValue }
    }
    /// Seconds to wait before retrying (RATE_LIMITED): the body's `retry_after`, else the `Retry-After` header.
    public var retryAfter: Int? {
        get { details.retryAfter }
        set { details.retryAfter = newValue }
    }
    /// For VERIFICATION_REQUIRED at sign-in: the login challenge.
    public var challengeID: String? {
        get { details.challengeId }
        set { details.challengeId = newValue }
    }
    /// For VERIFICATION_REQUIRED at sign-in: `email` or `totp`.
    public var method: String? {
        get { details.method }
        set { details.method = newValue }
    }

    /// The code, when it is one this SDK knows.
    public var code: LatchErrorCode? { LatchErrorCode(rawValue: rawCode) }

    public var description: String {
        var text = "\(rawCode) (\(status)): \(message)"
        if let field { text += " [field \(field)\(reasons.map { ": " + $0.joined(separator: ", ") } ?? "")]" }
        return text
    }
}

extension LatchServerError {
    init(status: Int, body: APIErrorBody, retryAfterHeader: Int?) {
        self.init(status: status, rawCode: body.error, message: body.message)
        details = body.details
        if details.retryAfter == nil { details.retryAfter = retryAfterHeader }
    }
}
