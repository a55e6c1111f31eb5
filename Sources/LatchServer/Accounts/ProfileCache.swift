import Fluent
import Foundation
import LatchCore
import Synchronization

/// The users `GET /v1/me` shows, kept for the same 5 s as session status: a change made on this
/// instance is seen at once, one made on another instance within 5 s.
final class ProfileCache: Sendable {
    private struct Entry {
        var info: UserInfo
        var loadedAt: Double
    }

    private let entries = Mutex<[UUID: Entry]>([:])
    private static let limit = 100_000

    init() {}

    /// The user's profile, from the cache when fresh; nil when the user no longer exists.
    func profile(of userID: UUID, now: Double, on database: any Database) async throws -> UserInfo? {
        if let entry = entries.withLock({ $0[userID] }), now - entry.loadedAt < SessionStatusCache.recheckInterval {
            return entry.info
        }
        guard let user = try await User.find(userID, on: database) else { return nil }
        remember(user.info, of: userID, now: now)
        return user.info
    }

    /// Stores a profile this instance just changed.
    func remember(_ info: UserInfo, of userID: UUID, now: Double) {
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[userID] = Entry(info: info, loadedAt: now)
        }
    }
}
