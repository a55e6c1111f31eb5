import Foundation

/// A webhook stream's signing secret (issue 42 §2, Standard Webhooks): `whsec_` and the base64 of 32
/// random bytes, shown to the operator once; the HMAC key is the decoded bytes.
struct WebhookSecret: Sendable, Equatable {
    /// The HMAC-SHA256 key.
    let key: Data

    /// A new random secret.
    static func random() -> WebhookSecret { WebhookSecret(key: RandomSecrets.bytes(32)) }

    init(key: Data) { self.key = key }

    /// Reads `whsec_…` (or bare base64); nil when it is not base64 of 24 to 64 bytes.
    init?(_ text: String) {
        let encoded = text.hasPrefix("whsec_") ? String(text.dropFirst(6)) : text
        guard let key = Data(base64Encoded: encoded), (24...64).contains(key.count) else { return nil }
        self.key = key
    }

    /// As the operator is shown it, once.
    var text: String { "whsec_" + key.base64EncodedString() }
}
