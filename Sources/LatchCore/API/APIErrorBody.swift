import Foundation

/// The body of every error answer: `{"error": CODE, "message": TEXT, …details}`, the details
/// (`LatchErrorDetails`) at the top level.
public struct APIErrorBody: Codable, Sendable, Equatable {
    public var error: String
    public var message: String
    /// Everything else the answer says (`field`, `reasons`, `attempts_remaining`, …).
    public var details: LatchErrorDetails

    public init(error: String, message: String, details: LatchErrorDetails) {
        self.error = error
        self.message = message
        self.details = details
    }

    public init(
        error: String, message: String, field: String? = nil, reasons: [String]? = nil,
        attemptsRemaining: Int? = nil, lockedUntil: Date? = nil, retryAfter: Int? = nil, challengeId: String? = nil,
        method: String? = nil
    ) {
        self.init(
            error: error, message: message,
            details: LatchErrorDetails(
                field: field, reasons: reasons, attemptsRemaining: attemptsRemaining, lockedUntil: lockedUntil,
                retryAfter: retryAfter, challengeId: challengeId, method: method))
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
    /// When a lock ends.
    public var lockedUntil: Date? {
        get { details.lockedUntil }
        set { details.lockedUntil = newValue }
    }
    /// Seconds to wait before retrying.
    public var retryAfter: Int? {
        get { details.retryAfter }
        set { details.retryAfter = newValue }
    }
    /// For VERIFICATION_REQUIRED at sign-in: the login challenge to answer with grant `login_challenge`.
    public var challengeId: String? {
        get { details.challengeId }
        set { details.challengeId = newValue }
    }
    /// For VERIFICATION_REQUIRED at sign-in: `email` (a code was mailed) or `totp`.
    public var method: String? {
        get { details.method }
        set { details.method = newValue }
    }

    enum CodingKeys: String, CodingKey {
        case error, message
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        error = try container.decode(String.self, forKey: .error)
        message = try container.decode(String.self, forKey: .message)
        details = try LatchErrorDetails(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(error, forKey: .error)
        try container.encode(message, forKey: .message)
        try details.encode(to: encoder)
    }
}
