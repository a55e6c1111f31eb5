import Crypto
import Foundation

/// The Standard Webhooks signature (issue 42 §2, standardwebhooks.com): `v1,` and the base64 of
/// HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`. A pure value: the delivery signs, a test
/// checks it against the specification's vector and the `standardwebhooks` Python package.
enum StandardWebhookSignature {
    /// The `webhook-signature` entry of `body` sent as message `id` at `timestamp` (epoch seconds).
    static func sign(id: String, timestamp: Int, body: Data, secret: WebhookSecret) -> String {
        var signed = Data("\(id).\(timestamp).".utf8)
        signed.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret.key))
        return "v1," + Data(mac).base64EncodedString()
    }

    /// The three headers of a delivery: during a secret's rotation, one signature per live secret,
    /// space-separated (the receiver accepts any that verifies).
    static func headers(id: String, timestamp: Int, body: Data, secrets: [WebhookSecret]) -> [(String, String)] {
        let signatures = secrets.map { sign(id: id, timestamp: timestamp, body: body, secret: $0) }
        return [
            ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", signatures.joined(separator: " "))
        ]
    }

    /// Whether `header` (a `webhook-signature` value) holds a `v1` signature of this message by `secret`,
    /// compared in constant time: how a receiver verifies (the Swift example of docs/EVENTS.md).
    static func verifies(header: String, id: String, timestamp: Int, body: Data, secret: WebhookSecret) -> Bool {
        let expected = sign(id: id, timestamp: timestamp, body: body, secret: secret)
        return header.split(separator: " ").contains { SecretBox.constantTimeEquals(String($0), expected) }
    }
}
