import Foundation
import NIOCore

/// latchd's `EventTransport`: a POST to the receiver over `OutboundHTTP` (no redirects followed, a capped
/// answer), after `ReceiverURLCheck`. Interim: the pinned-address client of `Receivers/` replaces it.
struct ReceiverTransport: EventTransport {
    let rules: EventReceiverSettings

    func deliver(_ request: EventDeliveryRequest, to url: String) async -> EventTransportOutcome {
        do {
            _ = try ReceiverURLCheck.check(url, rules: rules)
        } catch {
            return .failed(reason: "refused_url")
        }
        do {
            let answer = try await OutboundHTTP.shared.post(
                url, contentType: request.contentType, body: request.body,
                headers: request.headers.map { ($0.name, $0.value) }, timeout: .seconds(10))
            return .answered(status: Int(answer.status), body: String(decoding: answer.body.prefix(200), as: UTF8.self))
        } catch {
            return .failed(reason: "no_answer")
        }
    }
}

/// Whether a receiver URL may be a stream's (issue 42 §3): `https` (or `http` when allowed), a host, no
/// user name or password, and no loopback, private or link-local address unless allowed.
enum ReceiverURLCheck {
    static func check(_ url: String, rules: EventReceiverSettings) throws -> String {
        guard url.count <= 2_048, let components = URLComponents(string: url), let scheme = components.scheme,
            let host = components.host, !host.isEmpty
        else { throw LatchError.invalid("url", ["not_a_url"]) }
        guard scheme == "https" || (scheme == "http" && rules.allowsPlainHTTP) else {
            throw LatchError.invalid("url", ["https_required"])
        }
        guard components.user == nil, components.password == nil, components.fragment == nil else {
            throw LatchError.invalid("url", ["no_userinfo_or_fragment"])
        }
        if !rules.allowsPrivateAddresses, LoopbackAddress.isLoopback(host: host) || isPrivateLiteral(host) {
            throw LatchError.invalid("url", ["private_address"])
        }
        return url
    }

    private static func isPrivateLiteral(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard let address = try? SocketAddress(ipAddress: bare, port: 0) else { return false }
        switch address {
        case .v4:
            let parts = bare.split(separator: ".").compactMap { Int($0) }
            guard parts.count == 4 else { return true }
            return parts[0] == 10 || parts[0] == 127 || parts[0] == 0 || (parts[0] == 169 && parts[1] == 254)
                || (parts[0] == 172 && (16...31).contains(parts[1])) || (parts[0] == 192 && parts[1] == 168)
                || (parts[0] == 100 && (64...127).contains(parts[1])) || parts[0] >= 224
        default:
            let lowered = bare.lowercased()
            return lowered == "::" || lowered == "::1" || lowered.hasPrefix("fe80") || lowered.hasPrefix("fc")
                || lowered.hasPrefix("fd") || lowered.hasPrefix("::ffff:") || lowered.hasPrefix("ff")
        }
    }
}
