/// What a delivery job sends, as its carrier takes it: a mail already rendered (so every attempt,
/// on any instance, sends the same bytes with the same Message-ID), an SMS's number and text, or an
/// approval push to one phone (issue 43 §2).
/// Stored sealed (`DeliveryJobStore`): it holds addresses and codes.
enum DeliveryJobPayload: Codable, Sendable, Equatable {
    /// An SMTP transaction: envelope sender, recipients, the RFC 5322 text, the EHLO name.
    case mail(from: String, recipients: [String], message: String, clientName: String)
    /// An SMS for the webhook gateway.
    case sms(to: String, text: String)
    /// An APNs notification for one device token.
    case push(APNsPush)

    init(_ envelope: SMTPEnvelope) {
        self = .mail(
            from: envelope.from, recipients: envelope.recipients, message: envelope.message,
            clientName: envelope.clientName)
    }

    /// Whom it goes to: the mail's first recipient, the SMS's number, or the push's device token.
    var recipient: String? {
        switch self {
        case .mail(_, let recipients, _, _): recipients.first
        case .sms(let to, _): to
        case .push(let push): push.token
        }
    }

    /// The channel (`OutgoingMessage.channel`) whose carrier sends it.
    var channel: String {
        switch self {
        case .mail: OutgoingMessage.emailChannel
        case .sms: OutgoingMessage.smsChannel
        case .push: APNsPushQueue.channel
        }
    }
}
