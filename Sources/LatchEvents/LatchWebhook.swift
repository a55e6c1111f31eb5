import Crypto
import Foundation

/// Verifies Latch's webhook deliveries (Standard Webhooks, standardwebhooks.com) and decodes their events.
///
/// latchd signs each delivery with the stream's secret (`whsec_…`, shown once when the stream is added):
/// `webhook-signature` holds `v1,` and the base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`,
/// one per live secret, space-separated. Verify the exact bytes you received, before parsing them:
///
/// ```swift
/// let webhook = try LatchWebhook(secret: "whsec_…")
/// let event = try webhook.verify(body: body, headers: headers) // throws LatchWebhookError
/// switch event.type {
/// case .accountFrozen: try await revokeAPIKeys(of: event.userID)
/// default: break
/// }
/// ```
public struct LatchWebhook: Sendable {
    /// How far `webhook-timestamp` may be from now, either way (the specification's 5 minutes).
    public static let tolerance: TimeInterval = 5 * 60

    private let keys: [SymmetricKey]

    /// A verifier for one stream's secret.
    /// - Throws: `LatchWebhookError.invalidSecret` when it is not `whsec_` and base64 of 24 to 64 bytes.
    public init(secret: String) throws {
        try self.init(secrets: [secret])
    }

    /// A verifier that accepts a signature by any of `secrets`: while you roll a rotated secret out, give
    /// the new one and the old one (latchd signs with both for 24 hours after `rotate-secret`).
    /// - Throws: `LatchWebhookError.invalidSecret` when one is not `whsec_` and base64 of 24 to 64 bytes,
    ///   or there is none.
    public init(secrets: [String]) throws {
        let keys = try secrets.map { secret in
            let encoded = secret.hasPrefix("whsec_") ? String(secret.dropFirst(6)) : secret
            guard let bytes = Data(base64Encoded: encoded), (24...64).contains(bytes.count) else {
                throw LatchWebhookError.invalidSecret
            }
            return SymmetricKey(data: bytes)
        }
        guard !keys.isEmpty else { throw LatchWebhookError.invalidSecret }
        self.keys = keys
    }

    /// Verifies a delivery and decodes its event.
    ///
    /// - Parameters:
    ///   - body: the request body exactly as received (not re-encoded JSON).
    ///   - headers: the request's headers; names in any case.
    ///   - now: the time to judge `webhook-timestamp` against (tests pass their own).
    /// - Returns: the event, once a signature verified, the timestamp is within 5 minutes of `now` and the
    ///   body is a Latch event.
    /// - Throws: `LatchWebhookError`.
    public func verify(body: Data, headers: [String: String], now: Date = Date()) throws -> LatchEvent {
        try verifySignature(body: body, headers: headers, now: now)
        return try LatchEvent(webhookBody: body)
    }

    /// `verify(body:headers:now:)` for a body as bytes (a Hummingbird `ByteBuffer`'s readable bytes).
    public func verify(body: [UInt8], headers: [String: String], now: Date = Date()) throws -> LatchEvent {
        try verify(body: Data(body), headers: headers, now: now)
    }

    /// Checks the signature and the timestamp only, for a body you decode yourself.
    /// - Throws: `LatchWebhookError` (every case but `invalidPayload`).
    public func verifySignature(body: Data, headers: [String: String], now: Date = Date()) throws {
        var lowercased: [String: String] = [:]
        for (name, value) in headers { lowercased[name.lowercased()] = value }
        func header(_ name: String) throws -> String {
            guard let value = lowercased[name] else { throw LatchWebhookError.missingHeader(name) }
            return value
        }
        let id = try header("webhook-id")
        let timestampText = try header("webhook-timestamp")
        let signatures = try header("webhook-signature")
        guard let timestamp = Int(timestampText.trimmingCharacters(in: .whitespaces)) else {
            throw LatchWebhookError.invalidTimestamp(timestampText)
        }
        let age = now.timeIntervalSince1970 - Double(timestamp)
        if age > Self.tolerance { throw LatchWebhookError.timestampTooOld }
        if age < -Self.tolerance { throw LatchWebhookError.timestampTooNew }
        var signed = Data("\(id).\(timestamp).".utf8)
        signed.append(body)
        // `v1,BASE64` entries, space-separated; other versions (`v1a` is asymmetric) are not Latch's.
        let candidates = signatures.split(separator: " ").compactMap { entry -> Data? in
            let parts = entry.split(separator: ",", maxSplits: 1)
            guard parts.count == 2, parts[0] == "v1" else { return nil }
            return Data(base64Encoded: String(parts[1]))
        }
        // Every candidate against every key, each compared in constant time by swift-crypto.
        var verified = false
        for candidate in candidates {
            for key in keys where HMAC<SHA256>.isValidAuthenticationCode(candidate, authenticating: signed, using: key)
            {
                verified = true
            }
        }
        guard verified else { throw LatchWebhookError.noMatchingSignature }
    }
}
