import Fluent
import Foundation
import Vapor

/// The session a request was made from, established by `RequireSignedIn`.
public struct SignedInSession: Sendable, Equatable {
    public let userID: UUID
    public let sessionID: UUID
}

/// Lets only requests with a valid access token of a live session through; everything else
/// gets AUTH_004. Apps that mount LatchServer can put it in front of their own routes.
public struct RequireSignedIn: AsyncMiddleware {
    public init() {}

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await request.authenticateSession()
        return try await next.respond(to: request)
    }
}

private enum SignedInKey: StorageKey {
    typealias Value = SignedInSession
}

extension Request {
    /// Checks the bearer access token (valid, live session) and makes `signedIn` available;
    /// throws AUTH_004 otherwise. `RequireSignedIn` runs it for whole route groups.
    public func authenticateSession() async throws {
        let latch = self.latch
        let now = latch.clock.now
        guard let token = headers.bearerAuthorization?.token,
            let claims = await latch.accessTokens.verify(token, now: now),
            let userID = UUID(uuidString: claims.sub), let sessionID = UUID(uuidString: claims.sid),
            try await latch.sessionStatus.isLive(sessionID, now: now.timeIntervalSince1970, on: { self.db })
        else { throw LatchError.sessionExpired }
        storage[SignedInKey.self] = SignedInSession(userID: userID, sessionID: sessionID)
    }

    /// The signed-in session; only behind `RequireSignedIn`.
    public var signedIn: SignedInSession {
        get throws {
            guard let session = storage[SignedInKey.self] else { throw LatchError.sessionExpired }
            return session
        }
    }
}
