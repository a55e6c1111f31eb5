import Crypto
import Foundation

/// Signs as latchd does (Standard Webhooks `v1`), written again here from the specification so the
/// tests do not check LatchEvents against itself.
enum WebhookSigner {
    static func signature(id: String, timestamp: Int, body: Data, secret: String) -> String {
        let key = SymmetricKey(data: Data(base64Encoded: String(secret.dropFirst("whsec_".count)))!)
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(id).\(timestamp).".utf8) + body, using: key)
        return "v1," + Data(mac).base64EncodedString()
    }

    static func headers(id: String, timestamp: Int, body: Data, secrets: [String]) -> [String: String] {
        [
            "webhook-id": id, "webhook-timestamp": String(timestamp),
            "webhook-signature": secrets.map { signature(id: id, timestamp: timestamp, body: body, secret: $0) }
                .joined(separator: " ")
        ]
    }

    /// A new `whsec_` secret of 32 random bytes.
    static func newSecret() -> String {
        "whsec_" + SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString()
    }
}
