import Foundation

/// An outbound event as a Standard Webhooks body (issue 42 §2): `{"type", "timestamp", "data"}`, the
/// timestamp in RFC 3339 with milliseconds, `data` the event's fields with its ids beside them (`id`,
/// `user_id`, `session_id`, `actor`, `txn`). Keys sorted, so one event always has the same bytes.
enum WebhookPayload {
    static func body(of event: OutboundEventStore.Stored) throws -> Data {
        var data = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any] ?? [:]
        data["id"] = event.id
        data["user_id"] = event.user?.uuidString.lowercased()
        data["session_id"] = event.session?.uuidString.lowercased()
        data["actor"] = event.actor
        data["txn"] = event.transaction
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let body: [String: Any] = [
            "type": event.type, "timestamp": formatter.string(from: Date(timeIntervalSince1970: event.occurredAt)),
            "data": data
        ]
        return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}
