import Foundation

/// Server nonces for DPoP proofs (RFC 9449 §8, `LATCH_DPOP_NONCE=1`), stateless: a nonce is a five-minute
/// window's number and its keyed hash under `LATCH_SECRET_KEY`, so every instance mints and accepts the
/// same ones without sharing anything. A nonce is accepted in its window and the next (5 to 10 minutes).
struct DPoPNonces: Sendable {
    static let window: Double = 300

    let secrets: SecretBox

    /// The nonce of `now`'s window: what a `DPoP-Nonce` header hands out.
    func current(now: Double) -> String { nonce(window: Self.windowNumber(now)) }

    /// Whether `nonce` is this window's or the previous one's.
    func accepts(_ nonce: String, now: Double) -> Bool {
        let window = Self.windowNumber(now)
        return [window, window - 1].contains { SecretBox.constantTimeEquals(self.nonce(window: $0), nonce) }
    }

    private func nonce(window: Int) -> String {
        "\(window).\(secrets.keyedHash(String(window), context: "dpop-nonce").prefix(32))"
    }

    private static func windowNumber(_ now: Double) -> Int { Int((now / window).rounded(.down)) }
}
