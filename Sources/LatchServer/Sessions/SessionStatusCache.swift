import FluentKit
import Foundation

/// Whether a session is still live, as latchd's own endpoints see it.
///
/// A revocation on this instance is seen at once; one made by another instance sharing a PostgreSQL
/// database as soon as `SessionRevocationListener` hears its NOTIFY (well under 1 s), and in any case
/// (SQLite, or the listener reconnecting) within `recheckInterval` (5 s), when the row is read again. The same read keeps
/// `last_active_at` fresh, written at most once a minute per session rather than on every request.
final class SessionStatusCache: Sendable {
    static let recheckInterval: Double = 5
    static let activityInterval: Double = 60
    /// Each session's liveness, valid for `recheckInterval` after it was read (a revocation: for good).
    private let entries = ExpiringCache<UUID, Bool>(limit: 100_000)

    init() {}

    /// Whether the session is live, when this instance checked within `recheckInterval`; `nil` when
    /// it must be read again (`isLive`). No suspension: the signed-in fast path.
    func rememberedLiveness(_ sessionID: UUID, now: Double) -> Bool? {
        entries.value(for: sessionID, now: now)
    }

    /// Whether the session is live; `database` is only asked for on a cache miss (a hit stays cheap).
    func isLive(_ sessionID: UUID, now: Double, on database: () -> any Database) async throws -> Bool {
        if let live = rememberedLiveness(sessionID, now: now) { return live }
        let live = try await SessionStore().isLive(
            sessionID, now: now, activityInterval: Self.activityInterval, on: database())
        entries.store(live, for: sessionID, validUntil: now + Self.recheckInterval, now: now)
        return live
    }

    /// Records a revocation another instance announced: marks the session revoked if this instance
    /// holds it (an unknown id is read from the database on first use anyway, so it is not stored).
    func noteRevokedElsewhere(_ sessionID: UUID) {
        entries.replaceIfPresent(sessionID, with: false, validUntil: .infinity)
    }

    /// Makes every session held as live be read from the database again on its next use.
    func recheckAll() {
        entries.removeAll(where: { live in live })
    }

    /// Records a revocation made by this instance, effective at once.
    func markRevoked(_ sessionIDs: some Sequence<UUID>) {
        for id in sessionIDs { entries.store(false, for: id, validUntil: .infinity) }
    }
}
