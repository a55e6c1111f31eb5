import FluentKit
import Foundation

/// A message to a person, by mail (`channel` "email") or SMS (`channel` "sms").
///
/// Whoever builds one hands it to `LatchServices.delivery`, which routes it by channel
/// (`ChannelRouter`): SMS to `LATCH_SMS_WEBHOOK_URL`, mail over SMTP, either to the development
/// outbox when its carrier is not configured. For SMS, `body` is the text sent and `subject` is
/// ignored (leave it empty).
public struct OutgoingMessage: Sendable, Codable, Equatable {
    /// The channel of mail.
    public static let emailChannel = "email"
    /// The channel of SMS: `to` is an E.164 number, `body` the text.
    public static let smsChannel = "sms"

    public var to: String
    public var channel: String
    public var subject: String
    /// The text (a mail's text/plain part; an SMS's text).
    public var body: String
    /// The one-time code the message carries, if any (the development outbox shows it for tests).
    public var code: String?
    public var createdAt: Date
    /// A mail's HTML part (not part of the outbox JSON); nil makes one from `body`.
    public var html: String? = nil
    /// The queue lane it waits in (not part of the outbox JSON): codes unless it is a notice.
    public var lane: DeliveryLane = .code

    enum CodingKeys: String, CodingKey {
        case to, channel, subject, body, code
        case createdAt = "created_at"
    }
}

/// Delivers messages. An implementation that queues logs and retries failed sends itself; it
/// throws only when it cannot take the message at all (its queue is full: 503 `delivery_queue_full`),
/// so a message is never dropped without the request that wanted it sent saying so.
public protocol MessageDelivery: Sendable {
    func deliver(_ message: OutgoingMessage) async throws

    /// Delivers `message` as part of the work on `database`: a durable queue stores it there, so on a
    /// transaction's database it is sent only if the transaction commits. Others ignore `database`.
    func deliver(_ message: OutgoingMessage, on database: any Database) async throws

    /// Does the work of handing `message` over — and refuses it as `deliver` would (503 when the queue
    /// is full) — without sending it: for a request that must not tell whether an address has an
    /// account (`password/forgot`, issue 20 §3). A durable queue writes the row in a transaction it
    /// rolls back; deliveries whose hand-over is only memory do nothing.
    func rehearse(_ message: OutgoingMessage, on database: any Database) async throws

    /// Delivers `message` doing exactly the work `rehearse` does (issue 28 §2): the two sides of an
    /// answer that must not tell whether an address has an account. A durable queue runs the same
    /// statements in one committed transaction of its own; others deliver as `deliver(_:on:)`.
    func deliverAsRehearsed(_ message: OutgoingMessage, on database: any Database) async throws
}

extension MessageDelivery {
    public func deliver(_ message: OutgoingMessage, on database: any Database) async throws {
        try await deliver(message)
    }

    public func rehearse(_ message: OutgoingMessage, on database: any Database) async throws {}

    public func deliverAsRehearsed(_ message: OutgoingMessage, on database: any Database) async throws {
        try await deliver(message, on: database)
    }
}
