import Foundation
import HTTPTypes
import Hummingbird

extension LatchRequest {
    /// The request as a DPoP proof must name it: its `DPoP` headers, method and URI. The URI's scheme and
    /// host are the ones the client addressed: behind a trusted proxy (`LATCH_TRUSTED_PROXIES`) its
    /// `X-Forwarded-Proto` and `X-Forwarded-Host`, otherwise `http` and the `Host` header (latchd itself
    /// speaks plain HTTP); without a `Host`, the issuer's.
    var dpopPresentation: DPoPPresentation {
        var scheme = "http"
        var host =
            host ?? URLComponents(string: latch.config.issuer).map { components in
                (components.host ?? "") + (components.port.map { ":\($0)" } ?? "")
            } ?? ""
        if let peer = remoteAddress?.ipAddress, let address = IPAddress(peer),
            latch.config.trustedProxies.trusts(address)
        {
            if let proto = Self.firstForwarded(headers[values: .xForwardedProto]) { scheme = proto.lowercased() }
            if let forwardedHost = Self.firstForwarded(headers[values: .xForwardedHost]) { host = forwardedHost }
        }
        return DPoPPresentation(
            proofs: headers[values: .dpop], method: method.rawValue, uri: "\(scheme)://\(host)\(path)")
    }

    /// The client's end of a forwarded header: its first comma-separated value, trimmed.
    private static func firstForwarded(_ values: [String]) -> String? {
        guard let first = values.first?.split(separator: ",").first else { return nil }
        let value = first.trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }
}
