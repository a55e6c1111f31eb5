import Foundation

extension LatchConfig {
    /// Reads issue 31's DPoP settings: `LATCH_DPOP` (`optional`, the default, or `required`) and
    /// `LATCH_DPOP_NONCE` (`1` to require server nonces; default off). A bad value names its variable.
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
    }
}
