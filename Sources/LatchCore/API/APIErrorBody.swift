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
    /// For VERIFICATION_REQUIRED at sign-in: the login challenge to answer with grant `login_challenge`.
    public var challengeId: String?
    /// For VERIFICATION_REQUIRED at sign-in: `email` (a code was mailed) or `totp`.
    public var method: String?

    public init(
        error: String, message: String, field: String? = nil, reasons: [String]? = nil,
        attemptsRemaining: Int? = nil, lockedUntil: Date? = nil, retryAfter: Int? = nil, challengeId: String? = nil,
        method: String? = nil
    ) {
        self.error = error
        self.message = message
        self.field = field
        self.reasons = reasons
        self.attemptsRemaining = attemptsRemaining
        self.lockedUntil = lockedUntil
        self.retryAfter = retryAfter
        self.challengeId = challengeId
        self.method = method
    }

    enum CodingKeys: String, CodingKey {
        case error, message, field, reasons, method
        case challengeId = "challenge_id"
        case attemptsRemaining = "attempts_remaining"
        case lockedUntil = "locked_until"
        case retryAfter = "retry_after"
    }
}
