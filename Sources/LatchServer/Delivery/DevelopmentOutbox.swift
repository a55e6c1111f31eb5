import Foundation

/// Development delivery: messages are kept in memory (the newest 1,000) and served by
/// `GET /dev/outbox`, so a developer or a test reads the codes without a mail server.
public actor DevelopmentOutbox: MessageDelivery {
    private var messages: [OutgoingMessage] = []
    private let limit = 1000

    public init() {}

    public func deliver(_ message: OutgoingMessage) {
        messages.append(message)
        if messages.count > limit { messages.removeFirst(messages.count - limit) }
    }

    /// Messages, oldest first, optionally only those to `address`.
    public func messages(to address: String?) -> [OutgoingMessage] {
        guard let address = address?.lowercased() else { return messages }
        return messages.filter { $0.to == address }
    }
}
