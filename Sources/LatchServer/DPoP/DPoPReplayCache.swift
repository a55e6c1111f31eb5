import Synchronization

/// The proofs this instance accepted at resources while they could still be replayed (RFC 9449 §11.1):
/// a proof's key and `jti` until its `iat` leaves the accepted window. Per instance by design (a
/// resource request must not pay a database write); the token endpoint's proofs are shared by every
/// instance instead (`UsedDPoPProofs`). Docs/SECURITY.md weighs the two.
final class DPoPReplayCache: Sendable {
    private let seen = Mutex<[String: Double]>([:])
    /// Beyond this many remembered proofs, the expired ones are dropped before the next is added.
    static let pruneAt = 50_000

    /// Records `key` until `expiry`; `false` when it is already recorded and not yet expired (a replay).
    func firstUse(_ key: String, until expiry: Double, now: Double) -> Bool {
        seen.withLock { seen in
            if let known = seen[key], known >= now { return false }
            if seen.count >= Self.pruneAt { seen = seen.filter { $0.value >= now } }
            seen[key] = expiry
            return true
        }
    }
}
