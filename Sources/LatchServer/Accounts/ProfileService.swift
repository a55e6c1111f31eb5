import FluentKit
import Foundation
import LatchCore

/// The caller's profile (`/v1/me`) without HTTP (issue 29 §1): its cached read and its one changeable
/// field, the nickname. `ProfileRoutes` is its HTTP edge.
struct ProfileService: Sendable {
    let latch: LatchServices
    let caller: Caller
    let db: any Database

    /// The profile as this instance's cache holds it (loaded within 5 s), or loaded now.
    func show() async throws -> ProfileCache.Profile {
        guard
            let profile = try await latch.accounts.profile(
                of: caller.user, now: latch.clock.epochSeconds, on: { [db] in db })
        else { throw LatchError.sessionExpired }
        return profile
    }

    /// Sets the nickname (validated by the edge; nil clears it) and answers the fresh profile.
    func updateNickname(_ nickname: String?) async throws -> UserInfo {
        let accounts = latch.accounts
        guard let user = try await accounts.user(caller.user, on: db) else { throw LatchError.sessionExpired }
        user.nickname = nickname
        try await accounts.save(user, on: db)
        let now = latch.clock.epochSeconds
        let profile = try await accounts.freshProfile(of: user, now: now, on: db)
        try await latch.events.record(
            .profileUpdated, user: caller.user, session: caller.session, ip: caller.ip, now: now, on: db)
        return profile
    }
}
