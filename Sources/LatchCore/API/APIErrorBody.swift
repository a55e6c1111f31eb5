import Foundation

/// The body of every error answer: `{"error": CODE, "message": TEXT, …details}`.
public struct APIErrorBody: Codable, Sendable, Equatable {
    public var error: String
    public var message: String
    /// The request field at fault, for validation errors.
    public var field: String?
    /// The rules a field broke (e.g. password policy violations).
    public var reasons: [String]?
    /// Attempts left before a code dies or a lock starts.
    public var attemptsRemaining: Int?
    /// When a lock ends.
    public var lockedUntil: Date?
    /// Seconds to wait before retrying.
    public var retryAfter: Int?

    public init(
        error: String, message: String, field: String? = nil, reasons: [String]? = nil,
        attemptsRemaining: Int? = nil, lockedUntil: Date? = nil, retryAfter: Int? = nil
    ) {
        self.error = error
        self.message = message
        self.field = field
        self.reasons = reasons
        self.attemptsRemaining = attemptsRemaining
        self.lockedUntil = lockedUntil
        self.retryAfter = retryAfter
    }

    enum CodingKeys: String, CodingKey {
        case error, message, field, reasons
        case attemptsRemaining = "attempts_remaining"
        case lockedUntil = "locked_until"
        case retryAfter = "retry_after"
    }
}
