import FluentKit
import Foundation
import Vapor

/// The session a request was made from, established by `RequireSignedIn`.
public struct SignedInSession: Sendable, Equatable {
    public let userID: UUID
    public let sessionID: UUID
}

/// Lets only requests with a valid access token of a live session through; everything else
/// gets AUTH_004 (DPOP_INVALID or USE_DPOP_NONCE when a DPoP-bound token lacks its key's proof). Apps that mount LatchServer can put it in front of their own routes.
///
/// A future-based `Middleware` (issue 21): a token this instance verified and a session it checked
/// within the last 5 s are accepted without leaving the event loop; anything else takes the full
/// asynchronous check (`authenticateSession`), which reads the database when it must.
public struct RequireSignedIn: Middleware {
    public init() {}

    public func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        if request.authenticateSessionFromCache() { return next.respond(to: request) }
        return request.eventLoop.makeFutureWithTask { try await request.authenticateSession() }
            .flatMap { next.respond(to: request) }
    }
}

private enum SignedInKey: StorageKey {
    typealias Value = SignedInSession
}

extension Request {
    /// Checks the access token (valid, live session; for a DPoP-bound one, its proof) and makes `signedIn` available;
    /// throws AUTH_004 otherwise. `RequireSignedIn` runs it for whole route groups.
    public func authenticateSession() async throws {
        let latch = self.latch
        let now = latch.clock.now
        guard let presented = headers.presentedToken,
            let claims = await latch.accessTokens.verify(presented.token, now: now),
            let userID = UUID(uuidString: claims.sub), let sessionID = UUID(uuidString: claims.sid)
        else { throw LatchError.sessionExpired }
        // A DPoP-bound token needs its key's proof (issue 31 §1); checked before the database is read.
        try latch.dpop.checkResource(
            presented, boundKey: claims.cnf?.jkt, dpopPresentation, now: now.timeIntervalSince1970)
        guard try await latch.sessionStatus.isLive(sessionID, now: now.timeIntervalSince1970, on: { self.db }) else {
            throw LatchError.sessionExpired
        }
        storage[SignedInKey.self] = SignedInSession(userID: userID, sessionID: sessionID)
    }

    /// `authenticateSession`'s answer when everything it needs is remembered and says yes: a token
    /// verified before (key not retired, not expired) of a session checked live within the last 5 s.
    /// `false` means "not known here", never "refused": the caller then runs `authenticateSession`.
    func authenticateSessionFromCache() -> Bool {
        let latch = self.latch
        let now = latch.clock.now
        guard let presented = headers.presentedToken,
            let remembered = latch.accessTokens.rememberedClaims(presented.token, now: now),
            latch.sessionStatus.rememberedLiveness(remembered.sessionID, now: now.timeIntervalSince1970) == true
        else { return false }
        // A refusal here is not this path's to answer: the full check runs the same rules and throws it
        // (a proof refused here was not recorded as used, so it is refused there for the same reason).
        guard
            (try? latch.dpop.checkResource(
                presented, boundKey: remembered.claims.cnf?.jkt, dpopPresentation, now: now.timeIntervalSince1970))
                != nil
        else { return false }
        storage[SignedInKey.self] = SignedInSession(userID: remembered.userID, sessionID: remembered.sessionID)
        return true
    }

    /// The signed-in session; only behind `RequireSignedIn`.
    public var signedIn: SignedInSession {
        get throws {
            guard let session = storage[SignedInKey.self] else { throw LatchError.sessionExpired }
            return session
        }
    }
}
