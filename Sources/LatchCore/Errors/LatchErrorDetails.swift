import Foundation

/// The details an error answer may carry besides its code and message, written once: the server's
/// `LatchError` and the client's `LatchServerError` embed them, and `APIErrorBody` puts them at the
/// top level of the JSON (`{"error": CODE, "message": TEXT, "field": …, "attempts_remaining": …}`).
public struct LatchErrorDetails: Codable, Sendable, Equatable {
    /// The request field at fault, for validation errors.
    public var field: String?
    /// The rules a field broke (e.g. password policy violations), or why something was refused.
    public var reasons: [String]?
    /// Attempts left before a code dies or a lock starts.
    public var attemptsRemaining: Int?
    /// When a lock ends (AUTH_002).
    public var lockedUntil: Date?
    /// Seconds to wait before retrying.
    public var retryAfter: Int?
    /// For VERIFICATION_REQUIRED at sign-in: the login challenge to answer with grant `login_challenge`.
    public var challengeId: String?
    /// For VERIFICATION_REQUIRED at sign-in: `email` (a code was mailed) or `totp` (`LoginChallengeMethod`).
    public var method: String?
    /// For SECURITY_HOLD: when the hold ends.
    public var holdUntil: Date?
    /// For SECURITY_HOLD: the change that started the hold (a `SecurityHoldReason` raw value).
    public var reason: String?
    /// For SECURITY_HOLD: the action that is held.
    public var action: String?
    /// For POLICY_LIMIT: the unit of the limit (e.g. `USDT`).
    public var unit: String?
    /// For POLICY_LIMIT: the limit for any 24 hours, a decimal string.
    public var limit: String?
    /// For POLICY_LIMIT: what may still be verified in this 24 hours, a decimal string.
    public var remaining: String?
    /// For NEW_VALUE_LOCKED: the parameter whose value is locked (e.g. `address`; `locked_until` says until when).
    public var parameter: String?

    public init(
        field: String? = nil, reasons: [String]? = nil, attemptsRemaining: Int? = nil, lockedUntil: Date? = nil,
        retryAfter: Int? = nil, challengeId: String? = nil, method: String? = nil, holdUntil: Date? = nil,
        reason: String? = nil, action: String? = nil, unit: String? = nil, limit: String? = nil,
        remaining: String? = nil, parameter: String? = nil
    ) {
        self.field = field
        self.reasons = reasons
        self.attemptsRemaining = attemptsRemaining
        self.lockedUntil = lockedUntil
        self.retryAfter = retryAfter
        self.challengeId = challengeId
        self.method = method
        self.holdUntil = holdUntil
        self.reason = reason
        self.action = action
        self.unit = unit
        self.limit = limit
        self.remaining = remaining
        self.parameter = parameter
    }

    enum CodingKeys: String, CodingKey {
        case field, reasons, method, reason, action, unit, limit, remaining, parameter
        case holdUntil = "hold_until"
        case challengeId = "challenge_id"
        case attemptsRemaining = "attempts_remaining"
        case lockedUntil = "locked_until"
        case retryAfter = "retry_after"
    }
}
