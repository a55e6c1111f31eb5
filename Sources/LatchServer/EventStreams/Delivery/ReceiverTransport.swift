import Foundation
import NIOCore

/// latchd's `EventTransport` (issue 42 §3): the stream's URL checked again by the receiver rules
/// (`ReceiverURL`), then `ReceiverClient`'s POST to the address it resolved once for this attempt, with its
/// timeouts and its capped answer.
struct ReceiverTransport: EventTransport {
    let client: ReceiverClient

    func deliver(_ request: EventDeliveryRequest, to url: String) async -> EventTransportOutcome {
        let receiver: ReceiverURL
        do {
            receiver = try ReceiverURL(url, rules: client.rules)
        } catch {
            return .failed(reason: "refused_url:\(error.code)")
        }
        do {
            let answer = try await client.post(
                receiver, headers: request.headers.map { ($0.name, $0.value) }, body: Array(request.body),
                contentType: request.contentType)
            return .answered(status: answer.status, body: answer.body)
        } catch {
            return .failed(reason: error.code)
        }
    }

    func shutdown() async { await client.shutdown() }
}

/// Whether a receiver URL may be a stream's (issue 42 §3), for the admin API and the SSF stream endpoints:
/// `ReceiverURL`'s rules (https, or http when allowed; a host; no user name, password or fragment; no
/// loopback, private or link-local address unless allowed), a refusal answered as 422 naming the reason.
enum ReceiverURLCheck {
    static func check(_ url: String, rules: ReceiverAddressRules) throws -> String {
        do {
            return try ReceiverURL(url, rules: rules).text
        } catch {
            throw LatchError.invalid("url", [error.code])
        }
    }
}
