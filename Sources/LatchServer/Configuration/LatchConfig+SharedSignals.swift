import Foundation

/// One key of `LATCH_SSF_RECEIVER_KEYS` (issue 42 §2): the receiver's audience (its SETs' `aud`) and the
/// key it sends as `Authorization: Bearer KEY` to latchd's SSF endpoints.
public struct SSFReceiverKey: Sendable, Equatable {
    public let audience: String
    public let key: String

    public init(audience: String, key: String) {
        self.audience = audience
        self.key = key
    }
}

extension LatchConfig {
    /// Reads `LATCH_SSF_RECEIVER_KEYS`: comma-separated `AUDIENCE=KEY` pairs (split at the first `=`, so the
    /// audience has none and the key may end in base64's `=`), each key at least 32 characters. Two keys
    /// with one audience are one receiver (rotation). A bad pair names the variable, never the key.
    mutating func readSharedSignals(_ value: (String) -> String?) throws {
        let name = "LATCH_SSF_RECEIVER_KEYS"
        var keys: [SSFReceiverKey] = []
        for (index, pair) in (value(name) ?? "").split(separator: ",").enumerated() {
            let text = pair.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            guard let equals = text.firstIndex(of: "=") else {
                throw ConfigurationError(name, "pair \(index + 1) is not AUDIENCE=KEY")
            }
            let audience = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
            let key = String(text[text.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            guard !audience.isEmpty, audience.count <= 512 else {
                throw ConfigurationError(name, "pair \(index + 1) needs an audience of 1 to 512 characters")
            }
            guard key.count >= 32 else {
                throw ConfigurationError(
                    name, "each key needs at least 32 characters (pair \(index + 1) has \(key.count))")
            }
            keys.append(SSFReceiverKey(audience: audience, key: key))
        }
        ssfReceiverKeys = keys
    }
}
