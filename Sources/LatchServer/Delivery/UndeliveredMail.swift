import Logging

/// Production delivery until the SMTP client lands (issue 6): it does not send, and says so in the
/// log at warning level, naming only the kind of message (never the address, body or code).
struct UndeliveredMail: MessageDelivery {
    let logger: Logger

    func deliver(_ message: OutgoingMessage) async {
        logger.warning("mail not sent: SMTP delivery is not implemented yet", metadata: ["channel": "\(message.channel)"])
    }
}
