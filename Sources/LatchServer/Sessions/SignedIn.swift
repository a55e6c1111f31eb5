import FluentKit
import Foundation
import Hummingbird
import LatchCore

/// The session a request was made from, established by `RequireSignedIn`.
public struct SignedInSession: Sendable, Equatable {
    public let userID: UUID
    public let sessionID: UUID
}

/// Lets only requests with a valid access token of a live session through; everything else
/// gets AUTH_004 (DPOP_INVALID or USE_DPOP_NONCE when a DPoP-bound token lacks its key's proof). Apps that
/// embed LatchServer put their own routes behind it with `LatchRoutes.signedIn()`; it is built with Latch's
/// services when the router is (`LatchApplication.routes(on:)`).
///
/// A token this instance verified and a session it checked within the last 5 s are accepted without a
/// database read (issue 21); anything else takes the full check (`authenticate`).
public struct RequireSignedIn: RouterMiddleware {
    let latch: LatchServices
    let database: RequestDatabase

    public func handle(
        _ request: Request, context: LatchRequestContext,
        next: (Request, LatchRequestContext) async throws -> Response
    ) async throws -> Response {
        var latchRequest = LatchRequest(request, context: context)
        if let remembered = remembered(latchRequest) {
            latchRequest.context.caller.identity = remembered
        } else {
            try await authenticate(&latchRequest)
        }
        return try await next(request, latchRequest.context)
    }

    /// Checks `req`'s access token (valid, live session; for a DPoP-bound one, its proof) and makes its
    /// `signedIn` available; throws AUTH_004 otherwise.
    func authenticate(_ req: inout LatchRequest) async throws {
        let now = latch.clock.now
        guard let presented = req.headers.presentedToken,
            let claims = await latch.accessTokens.verify(presented.token, now: now),
            let userID = UUID(uuidString: claims.sub), let sessionID = UUID(uuidString: claims.sid)
        else { throw LatchError.sessionExpired }
        // A DPoP-bound token needs its key's proof (issue 31 §1); checked before the database is read.
        try latch.dpop.checkResource(
            presented, boundKey: claims.cnf?.jkt, latch.dpop.presentation(of: req), now: now.timeIntervalSince1970)
        let db = database(req)
        guard try await latch.sessionStatus.isLive(sessionID, now: now.timeIntervalSince1970, on: { db }) else {
            throw LatchError.sessionExpired
        }
        req.context.caller.identity = SignedInSession(userID: userID, sessionID: sessionID)
    }

    /// `authenticate`'s answer when everything it needs is remembered and says yes: a token verified before
    /// (key not retired, not expired) of a session checked live within the last 5 s. nil means "not known
    /// here", never "refused": the caller then runs `authenticate`.
    func remembered(_ req: LatchRequest) -> SignedInSession? {
        let now = latch.clock.now
        guard let presented = req.headers.presentedToken,
            let remembered = latch.accessTokens.rememberedClaims(presented.token, now: now),
            latch.sessionStatus.rememberedLiveness(remembered.sessionID, now: now.timeIntervalSince1970) == true
        else { return nil }
        // A refusal here is not this path's to answer: the full check runs the same rules and throws it
        // (a proof refused here was not recorded as used, so it is refused there for the same reason).
        guard
            (try? latch.dpop.checkResource(
                presented, boundKey: remembered.claims.cnf?.jkt, latch.dpop.presentation(of: req),
                now: now.timeIntervalSince1970))
                != nil
        else { return nil }
        return SignedInSession(userID: remembered.userID, sessionID: remembered.sessionID)
    }
}
