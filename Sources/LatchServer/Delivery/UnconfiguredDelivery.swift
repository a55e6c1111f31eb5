import Logging

/// A channel production has no carrier for (SMS without `LATCH_SMS_WEBHOOK_URL`): the message is
/// not sent, and the log says so at warning level, naming only the channel.
struct UnconfiguredDelivery: MessageDelivery {
    let logger: Logger
    /// The variable that would configure the carrier.
    let variable: String

    func deliver(_ message: OutgoingMessage) async {
        logger.warning(
            "\(message.channel) not sent: \(variable) is not set", metadata: ["channel": "\(message.channel)"])
    }
}
