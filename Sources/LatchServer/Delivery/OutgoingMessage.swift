import Foundation

/// A message to a person: an email now, an SMS later.
public struct OutgoingMessage: Sendable, Codable, Equatable {
    public var to: String
    public var channel: String
    public var subject: String
    public var body: String
    /// The one-time code the message carries, if any (the development outbox shows it for tests).
    public var code: String?
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case to, channel, subject, body, code
        case createdAt = "created_at"
    }
}

/// Delivers messages. Delivery never fails a request: an implementation logs and retries itself.
public protocol MessageDelivery: Sendable {
    func deliver(_ message: OutgoingMessage) async
}
