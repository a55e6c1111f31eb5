import Foundation

/// The body of every error answer: `{"error": CODE, "message": TEXT, …details}`, the details
/// (`LatchErrorDetails`) at the top level.
@dynamicMemberLookup
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

    /// Each of ``LatchErrorDetails``' members (`field`, `reasons`, `attemptsRemaining`, `lockedUntil`,
    /// `retryAfter`, `challengeId`, `method`), read and written as if it were this type's own.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<LatchErrorDetails, Value>) -> Value {
        get { details[keyPath: keyPath] }
        set { details[keyPath: keyPath] = newValue }
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
