/// The proofs this instance accepted at resources while they could still be replayed (RFC 9449 §11.1):
/// a proof's key and `jti` until its `iat` leaves the accepted window. Per instance by design (a
/// resource request must not pay a database write); the token endpoint's proofs are shared by every
/// instance instead (`UsedDPoPProofStore`). Docs/SECURITY.md weighs the two.
final class DPoPReplayCache: Sendable {
    /// Beyond this many remembered proofs, the expired ones are dropped before the next is added; one
    /// still in its window is never dropped.
    static let pruneAt = 50_000
    private let seen = ExpiringCache<String, Void>(limit: pruneAt, keepsValidEntries: true)

    /// Records `key` until `expiry` (its last instant included); `false` when it is already recorded
    /// and not yet expired (a replay).
    func firstUse(_ key: String, until expiry: Double, now: Double) -> Bool {
        seen.storeIfAbsent((), for: key, validUntil: expiry.nextUp, now: now)
    }
}
