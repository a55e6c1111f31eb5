import FluentKit

/// Delivers each message by its `OutgoingMessage.channel`: `"sms"` goes to `sms` (the
/// `LATCH_SMS_WEBHOOK_URL` gateway, or the development outbox when none is configured); every
/// other channel (`"email"`) goes to `mail` (SMTP from `LATCH_SMTP_URL`, or the outbox).
///
///     try await latch.delivery.deliver(OutgoingMessage(
///         to: "+8613800138000", channel: "sms", subject: "", body: "Latch code 123456", code: "123456", createdAt: now))
struct ChannelRouter: MessageDelivery {
    let mail: any MessageDelivery
    let sms: any MessageDelivery

    func deliver(_ message: OutgoingMessage) async throws {
        if message.channel == OutgoingMessage.smsChannel {
            try await sms.deliver(message)
        } else {
            try await mail.deliver(message)
        }
    }

    func deliver(_ message: OutgoingMessage, on database: any Database) async throws {
        if message.channel == OutgoingMessage.smsChannel {
            try await sms.deliver(message, on: database)
        } else {
            try await mail.deliver(message, on: database)
        }
    }

    func rehearse(_ message: OutgoingMessage, on database: any Database) async throws {
        if message.channel == OutgoingMessage.smsChannel {
            try await sms.rehearse(message, on: database)
        } else {
            try await mail.rehearse(message, on: database)
        }
    }

    func deliverAsRehearsed(_ message: OutgoingMessage, on database: any Database) async throws {
        if message.channel == OutgoingMessage.smsChannel {
            try await sms.deliverAsRehearsed(message, on: database)
        } else {
            try await mail.deliverAsRehearsed(message, on: database)
        }
    }
}
