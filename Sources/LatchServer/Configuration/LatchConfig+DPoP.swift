import Foundation

extension LatchConfig {
    /// Reads issue 31's DPoP settings: `LATCH_DPOP` (`optional`, the default, or `required`),
    /// `LATCH_DPOP_NONCE` (`1` to require server nonces; default off) and `LATCH_PUBLIC_ORIGINS` (issue 41 §2
    /// D1: comma-separated `http(s)://host[:port]` origins a proof may name besides the issuer's). A bad value
    /// names its variable.
    mutating func readDPoP(_ value: (String) -> String?) throws {
        if let raw = value("LATCH_DPOP") {
            guard let mode = DPoPMode(rawValue: raw) else {
                throw ConfigurationError("LATCH_DPOP", "must be optional or required (got \(raw))")
            }
            dpop = mode
        }
        switch value("LATCH_DPOP_NONCE") {
        case nil, "0", "false", "no": dpopNonces = false
        case "1", "true", "yes": dpopNonces = true
        case let raw?: throw ConfigurationError("LATCH_DPOP_NONCE", "must be 1 or 0 (got \(raw))")
        }
        if let raw = value("LATCH_PUBLIC_ORIGINS") {
            let listed = raw.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let origins = listed.compactMap { DPoPOrigins.origin(of: $0) }
            guard !listed.isEmpty, origins.count == listed.count else {
                throw ConfigurationError(
                    "LATCH_PUBLIC_ORIGINS",
                    "must be comma-separated origins such as https://api.example.com, https://auth.example.com:8443 (no path) (got \(raw))"
                )
            }
            publicOrigins = origins
        }
    }
}
