import Foundation
import NIOCore

/// SMS through an HTTP gateway (`LATCH_SMS_WEBHOOK_URL`): each message is POSTed as JSON
/// `{"to": "+8613800138000", "text": "…"}` in the background; any answer other than 2xx, a
/// timeout or a connection error is retried with backoff by `DeliveryQueue`.
struct SMSWebhookDelivery: MessageDelivery {
    let url: String
    let http: OutboundHTTP
    let queue: DeliveryQueue
    var timeout: TimeAmount = .seconds(15)

    struct Payload: Encodable {
        let to: String
        let text: String
    }

    /// Why the gateway did not take a message (the status only: the URL may carry a secret).
    enum Failure: DeliveryFailure {
        case status(UInt)
        case transport(String)

        var isTemporary: Bool { true }

        var description: String {
            switch self {
            case .status(let code): "the SMS webhook answered \(code)"
            case .transport(let reason): "the SMS webhook could not be reached: \(reason)"
            }
        }
    }

    func deliver(_ message: OutgoingMessage) async throws {
        let (url, http, timeout) = (self.url, self.http, self.timeout)
        let (to, text) = (message.to, message.body)
        try await queue.enqueue { try await Self.post(to: to, text: text, url: url, http: http, timeout: timeout) }
    }

    /// One attempt: POSTs `{to, text}` to the gateway; throws `Failure` unless it answers 2xx.
    static func post(to: String, text: String, url: String, http: OutboundHTTP, timeout: TimeAmount) async throws {
        let body = (try? JSONEncoder().encode(Payload(to: to, text: text))) ?? Data()
        let response: OutboundHTTP.Response
        do {
            response = try await http.post(url, contentType: "application/json", body: body, timeout: timeout)
        } catch {
            throw Failure.transport(String(describing: type(of: error)))
        }
        guard (200..<300).contains(response.status) else { throw Failure.status(response.status) }
    }
}
