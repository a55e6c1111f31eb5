import FluentKit
import Foundation
import LatchCore
import NIOCore

/// The users `GET /v1/me` shows, kept (with their encoded JSON, so a hit costs no encoding) for the
/// same 5 s as session status: a change made on this instance is seen at once, one made on another
/// instance within 5 s.
final class ProfileCache: Sendable {
    /// A user's profile and its JSON body (as the buffer an answer sends, shared, never copied).
    struct Profile: Sendable {
        let info: UserInfo
        let json: ByteBuffer
    }

    private let entries = ExpiringCache<UUID, Profile>(limit: 100_000)

    init() {}

    /// The user's profile when this instance loaded it within the recheck interval; `nil` otherwise.
    /// No suspension: the `GET /v1/me` fast path.
    func rememberedProfile(of userID: UUID, now: Double) -> Profile? {
        entries.value(for: userID, now: now)
    }

    /// Drops a user's profile (a deleted account).
    func forget(_ userID: UUID) {
        entries.remove(userID)
    }

    /// Stores a profile this instance just loaded or changed.
    @discardableResult
    func remember(_ info: UserInfo, of userID: UUID, now: Double) throws -> Profile {
        let profile = Profile(info: info, json: ByteBuffer(bytes: try LatchJSON.encoder.encode(info)))
        entries.store(profile, for: userID, validUntil: now + SessionStatusCache.recheckInterval, now: now)
        return profile
    }
}
