import Foundation

extension LatchEvent {
    /// The fields of `data` that are the event's ids, not its type's fields.
    static let envelopeFields: Set<String> = ["id", "user_id", "session_id", "actor", "txn"]

    /// Decodes a webhook body **without checking its signature**: use `LatchWebhook.verify(body:headers:)`
    /// on what arrives over the network; this is for bodies you have verified or stored yourself.
    ///
    /// - Throws: `LatchWebhookError.invalidPayload` when the body is not Latch's `{"type", "timestamp",
    ///   "data"}` with an `id`, an `actor` and a `txn` in `data`.
    public init(webhookBody body: Data) throws {
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: body)
        } catch {
            throw LatchWebhookError.invalidPayload("not a Latch event body: \(error)")
        }
        guard let timestamp = Self.date(rfc3339: envelope.timestamp) else {
            throw LatchWebhookError.invalidPayload("timestamp \(envelope.timestamp) is not RFC 3339")
        }
        func text(_ key: String) -> String? { envelope.data[key]?.stringValue }
        guard let id = text("id"), let actor = text("actor"), let transaction = text("txn") else {
            throw LatchWebhookError.invalidPayload("data lacks id, actor or txn")
        }
        self.init(
            id: id, type: LatchEventType(envelope.type), timestamp: timestamp, userID: text("user_id"),
            sessionID: text("session_id"), actor: Actor(rawValue: actor) ?? .unknown(actor), transaction: transaction,
            data: envelope.data.filter { !Self.envelopeFields.contains($0.key) })
    }

    private struct Envelope: Decodable {
        let type: String
        let timestamp: String
        let data: [String: JSONValue]
    }

    /// `2026-12-02T04:00:00.250Z` (latchd sends milliseconds) or without the fraction.
    private static func date(rfc3339 text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

extension LatchEventType {
    /// The type named `name`, `unknown(name)` when it is none of the documented ones.
    public init(_ name: String) {
        self = Self.known.first { $0.rawValue == name } ?? .unknown(name)
    }
}
