import Crypto
import Foundation
import LatchCore

/// The operators' keys (`LATCH_ADMIN_KEYS`). A presented key is compared with each configured one by
/// their SHA-256 digests in constant time (both sides hashed, so neither the length nor the first
/// differing byte of a key shows in the timing), and every configured key is always compared.
struct AdminKeys: Sendable {
    private let keys: [(digest: [UInt8], fingerprint: String)]

    init(_ configured: [String]) {
        keys = configured.map { (Array(SHA256.hash(data: Data($0.utf8))), Self.fingerprint(of: $0)) }
    }

    /// The actor a presented key authenticates, or nil (no key configured matches).
    func actor(presenting presented: String) -> AdminActor? {
        let digest = Array(SHA256.hash(data: Data(presented.utf8)))
        var match: String?
        for key in keys {
            var difference: UInt8 = 0
            for index in digest.indices { difference |= digest[index] ^ key.digest[index] }
            if difference == 0, match == nil { match = key.fingerprint }
        }
        return match.map { .key(fingerprint: $0) }
    }

    /// A short, non-secret name of a key for the audit log: the first 8 hex digits of its SHA-256.
    static func fingerprint(of key: String) -> String {
        String(Hex.lowercase(SHA256.hash(data: Data(key.utf8))).prefix(8))
    }
}
