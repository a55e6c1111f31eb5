/// What a delivery job sends, as its carrier takes it: a mail already rendered (so every attempt,
/// on any instance, sends the same bytes with the same Message-ID), or an SMS's number and text.
/// Stored sealed (`DeliveryJobStore`): it holds addresses and codes.
enum DeliveryJobPayload: Codable, Sendable, Equatable {
    /// An SMTP transaction: envelope sender, recipients, the RFC 5322 text, the EHLO name.
    case mail(from: String, recipients: [String], message: String, clientName: String)
    /// An SMS for the webhook gateway.
    case sms(to: String, text: String)

    init(_ envelope: SMTPEnvelope) {
        self = .mail(
            from: envelope.from, recipients: envelope.recipients, message: envelope.message,
            clientName: envelope.clientName)
    }

    /// Whom it goes to: the mail's first recipient, or the SMS's number.
    var recipient: String? {
        switch self {
        case .mail(_, let recipients, _, _): recipients.first
        case .sms(let to, _): to
        }
    }

    /// The channel (`OutgoingMessage.channel`) whose carrier sends it.
    var channel: String {
        switch self {
        case .mail: OutgoingMessage.emailChannel
        case .sms: OutgoingMessage.smsChannel
        }
    }
}
