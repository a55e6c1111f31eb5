import Crypto
import Foundation
import LatchCore

/// An SSF receiver, as its key authenticates it (issue 42 §2): the id its streams are kept under and the
/// audience their SETs carry.
struct SSFReceiver: Sendable, Equatable {
    /// `ssr_…` for a key an operator made, `cfg_…` (from the audience) for one of `LATCH_SSF_RECEIVER_KEYS`:
    /// two configured keys with one audience are one receiver, so a key can be rotated without losing streams.
    let id: String
    let audience: String
}

/// The receiver keys of `LATCH_SSF_RECEIVER_KEYS`, compared as `AdminKeys` compares: both sides' SHA-256,
/// in constant time, every configured key each time.
struct SSFReceiverKeys: Sendable {
    private let keys: [(digest: [UInt8], receiver: SSFReceiver)]

    init(_ configured: [SSFReceiverKey]) {
        keys = configured.map {
            (
                Array(SHA256.hash(data: Data($0.key.utf8))),
                SSFReceiver(id: Self.id(of: $0.audience), audience: $0.audience)
            )
        }
    }

    /// The receiver a presented key authenticates, or nil.
    func receiver(presenting presented: String) -> SSFReceiver? {
        let digest = Array(SHA256.hash(data: Data(presented.utf8)))
        var match: SSFReceiver?
        for key in keys {
            var difference: UInt8 = 0
            for index in digest.indices { difference |= digest[index] ^ key.digest[index] }
            if difference == 0, match == nil { match = key.receiver }
        }
        return match
    }

    /// A configured receiver's id: `cfg_` and 24 hex digits of its audience's SHA-256.
    static func id(of audience: String) -> String {
        "cfg_" + String(Hex.lowercase(SHA256.hash(data: Data(audience.utf8))).prefix(24))
    }
}
