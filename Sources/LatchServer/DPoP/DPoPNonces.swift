import Crypto
import Foundation
import LatchCore

/// Server nonces for DPoP proofs (RFC 9449 §8, `LATCH_DPOP_NONCE=1`), tied to this instance (issue 41 §2
/// D2): a nonce is a one-minute window's number and its HMAC under a key drawn at random when the instance
/// starts and never shared or stored. So a nonce is accepted only by the instance that handed it out, the
/// one whose memory (`DPoPReplayCache`) holds every resource proof that used it, and not after a restart:
/// a captured proof is refused everywhere once used. A nonce is accepted in its window and the next
/// (1 to 2 minutes, well under a proof's 300 s).
struct DPoPNonces: Sendable {
    static let window: Double = 60

    private let key: SymmetricKey

    /// Nonces under a fresh random key (one per instance, per start).
    init() { self.key = SymmetricKey(size: .bits256) }

    /// The nonce of `now`'s window: what a `DPoP-Nonce` header hands out.
    func current(now: Double) -> String { nonce(window: Self.windowNumber(now)) }

    /// Whether `nonce` is this window's or the previous one's, as this instance minted them.
    func accepts(_ nonce: String, now: Double) -> Bool {
        let window = Self.windowNumber(now)
        return [window, window - 1].contains { SecretBox.constantTimeEquals(self.nonce(window: $0), nonce) }
    }

    private func nonce(window: Int) -> String {
        let tag = HMAC<SHA256>.authenticationCode(for: Data("dpop-nonce\n\(window)".utf8), using: key)
        return "\(window).\(Base64URL.encode(Data(tag)).prefix(32))"
    }

    private static func windowNumber(_ now: Double) -> Int { Int((now / window).rounded(.down)) }
}
