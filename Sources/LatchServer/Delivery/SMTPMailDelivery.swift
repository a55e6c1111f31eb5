/// Mail over SMTP: each message becomes a MIME mail (text and HTML) and is sent in the background
/// by `DeliveryQueue`, with retries on temporary failures. `deliver` returns at once.
struct SMTPMailDelivery: MessageDelivery {
    let client: SMTPClient
    let from: MailAddress
    let queue: DeliveryQueue

    func deliver(_ message: OutgoingMessage) async throws {
        let envelope = Self.envelope(for: message, from: from)
        let client = self.client
        try await queue.enqueue { try await client.send(envelope) }
    }

    /// `message` as an SMTP transaction from `from`: a MIME mail with a text and an HTML part.
    static func envelope(for message: OutgoingMessage, from: MailAddress) -> SMTPEnvelope {
        let mail = MIMEMessage(
            from: from, to: message.to, subject: message.subject, text: message.body,
            html: message.html ?? MailHTML.page(paragraphs: [message.body]), date: message.createdAt)
        return SMTPEnvelope(
            from: from.address, recipients: [message.to], message: mail.rendered(), clientName: from.domain)
    }
}
