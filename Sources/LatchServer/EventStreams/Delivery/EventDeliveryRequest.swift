import Foundation

/// What one delivery sends (issue 42 §2): a Standard Webhooks POST, or an SSF push of one SET.
struct EventDeliveryRequest: Sendable, Equatable {
    let contentType: String
    let headers: [Header]
    let body: Data

    struct Header: Sendable, Equatable {
        let name: String
        let value: String
    }

    /// The webhook of `event`, signed at `timestamp` (epoch seconds) with each of `secrets` (a rotation
    /// sends both signatures). `webhook-id` is the event's id, the same on every attempt.
    static func webhook(_ event: OutboundEventStore.Stored, secrets: [WebhookSecret], timestamp: Int) throws
        -> EventDeliveryRequest
    {
        let body = try WebhookPayload.body(of: event)
        let headers = StandardWebhookSignature.headers(id: event.id, timestamp: timestamp, body: body, secrets: secrets)
        return EventDeliveryRequest(
            contentType: "application/json", headers: headers.map { Header(name: $0.0, value: $0.1) }, body: body)
    }

    /// An SSF push (RFC 8935 §2): the SET as the whole body, with the receiver's `Authorization` when it
    /// gave one.
    static func securityEventToken(_ token: String, authorization: String?) -> EventDeliveryRequest {
        EventDeliveryRequest(
            contentType: "application/secevent+jwt",
            headers: authorization.map { [Header(name: "Authorization", value: $0)] } ?? [],
            body: Data(token.utf8))
    }
}
