import Foundation
import LatchCore

/// An error answer from latchd, in the API's error format (`{"error": CODE, "message": …, …details}`).
@dynamicMemberLookup
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

    /// Each of ``LatchErrorDetails``' members (`field`, `reasons`, `attemptsRemaining`, `lockedUntil`,
    /// `retryAfter`, `challengeId`, `method`), read and written as if it were this type's own.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<LatchErrorDetails, Value>) -> Value {
        get { details[keyPath: keyPath] }
        set { details[keyPath: keyPath] = newValue }
    }

    /// For VERIFICATION_REQUIRED at sign-in: the login challenge.
    public var challengeID: String? {
        get { details.challengeId }
        set { details.challengeId = newValue }
    }

    /// The code, when it is one this SDK knows.
    public var code: LatchErrorCode? { LatchErrorCode(rawValue: rawCode) }

    public var description: String {
        var text = "\(rawCode) (\(status)): \(message)"
        if let field = details.field {
            text += " [field \(field)\(details.reasons.map { ": " + $0.joined(separator: ", ") } ?? "")]"
        }
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
