import FluentKit
import Foundation
import LatchCore
import NIOCore
import Synchronization

/// The users `GET /v1/me` shows, kept (with their encoded JSON, so a hit costs no encoding) for the
/// same 5 s as session status: a change made on this instance is seen at once, one made on another
/// instance within 5 s.
final class ProfileCache: Sendable {
    /// A user's profile and its JSON body (as the buffer an answer sends, shared, never copied).
    struct Profile: Sendable {
        let info: UserInfo
        let json: ByteBuffer
    }

    private struct Entry {
        var profile: Profile
        var loadedAt: Double
    }

    private let entries = Mutex<[UUID: Entry]>([:])
    private static let limit = 100_000

    init() {}

    /// The user's profile when this instance loaded it within the recheck interval; `nil` otherwise.
    /// No suspension: the `GET /v1/me` fast path.
    func rememberedProfile(of userID: UUID, now: Double) -> Profile? {
        guard let entry = entries.withLock({ $0[userID] }), now - entry.loadedAt < SessionStatusCache.recheckInterval
        else { return nil }
        return entry.profile
    }

    /// Drops a user's profile (a deleted account).
    func forget(_ userID: UUID) {
        _ = entries.withLock { $0.removeValue(forKey: userID) }
    }

    /// Stores a profile this instance just loaded or changed.
    @discardableResult
    func remember(_ info: UserInfo, of userID: UUID, now: Double) throws -> Profile {
        let profile = Profile(info: info, json: ByteBuffer(bytes: try LatchJSON.encoder.encode(info)))
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[userID] = Entry(profile: profile, loadedAt: now)
        }
        return profile
    }
}
