import FluentKit
import Foundation
import LatchCore

/// The caller's signed-in devices (C8/C9), without HTTP (issue 29 §1): list them, sign one out, sign out
/// all others, sign out here. `SessionRoutes` is its HTTP edge.
struct SessionService: Sendable {
    let latch: LatchServices
    let caller: Caller
    let db: any Database

    /// The live sessions, most recently active first.
    func list() async throws -> [SessionInfo] {
        let now = latch.clock.epochSeconds
        let sessions = try await SessionStore().live(of: caller.user, now: now, on: db)
        return sessions.map { $0.info(current: caller.session) }
    }

    /// Signs session `id` out; 404 when it is not one of the caller's live sessions. Another session
    /// signed out is a security change (mailed); this one is recorded only. The revocation, its event and
    /// the notice commit together, and this instance's status cache hears of it only after the commit.
    func signOut(_ id: UUID) async throws {
        let (latch, caller) = (self.latch, self.caller)
        let now = latch.clock.epochSeconds
        try await latch.revocation.committing(on: db) { database in
            let revoked = try await latch.revocation.revoke(.one(id), of: caller.user, now: now, on: database)
            guard !revoked.isEmpty else { throw LatchError.notFound }
            if id == caller.session {
                try await latch.events.record(
                    .sessionRevoked, user: caller.user, session: id, ip: caller.ip, now: now, on: database)
            } else {
                try await latch.securityChanges.apply(
                    SecurityChange(.sessionEnded), by: caller.changeActor, on: database)
            }
        }
    }

    /// Signs every other session out (a security change: mailed, committed with the revocation).
    func signOutOthers() async throws {
        let (latch, caller) = (self.latch, self.caller)
        let now = latch.clock.epochSeconds
        try await latch.revocation.committing(on: db) { database in
            try await latch.revocation.revoke(.allExcept(caller.session), of: caller.user, now: now, on: database)
            try await latch.securityChanges.apply(
                SecurityChange(.otherSessionsEnded), by: caller.changeActor, on: database)
        }
    }

    /// Signs this session out.
    func signOutHere() async throws {
        let now = latch.clock.epochSeconds
        try await latch.revocation.revoke(.one(caller.session), of: caller.user, now: now, on: db)
        try await latch.events.record(
            .signedOut, user: caller.user, session: caller.session, ip: caller.ip, now: now, on: db)
    }
}
