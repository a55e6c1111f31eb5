import Fluent
import LatchCore
import Vapor

/// `GET`/`PATCH /v1/me`: the signed-in user.
struct ProfileRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let me = routes.grouped("v1", "me").grouped(RequireSignedIn())
        me.get(use: showFromCacheOrLoad)
        me.patch(use: update)
    }

    /// `GET /v1/me` (issue 21): a profile this instance loaded within 5 s is answered on the event loop
    /// with its stored body; otherwise `show` loads it.
    func showFromCacheOrLoad(_ req: Request) -> EventLoopFuture<Response> {
        if let me = try? req.signedIn,
            let profile = req.latch.profiles.rememberedProfile(of: me.userID, now: req.latch.clock.epochSeconds)
        {
            return req.eventLoop.makeSucceededFuture(Response.json(profile.json))
        }
        return req.eventLoop.makeFutureWithTask { try await show(req) }
    }

    func show(_ req: Request) async throws -> Response {
        let me = try req.signedIn
        guard
            let profile = try await req.latch.profiles.profile(
                of: me.userID, now: req.latch.clock.epochSeconds, on: { req.db })
        else { throw LatchError.sessionExpired }
        return Response.json(profile.json)
    }

    func update(_ req: Request) async throws -> UserInfo {
        let body = try req.decodeJSON(UpdateProfileRequest.self)
        let nickname = try Validate.nickname(body.nickname)
        let user = try await currentUser(req)
        user.nickname = nickname
        try await user.save(on: req.db)
        let profile = try await user.profile(on: req.db)
        try req.latch.profiles.remember(profile, of: try user.requireID(), now: req.latch.clock.epochSeconds)
        try await req.latch.events.record(
            .profileUpdated, user: user.id, session: try req.signedIn.sessionID, ip: req.clientIP,
            now: req.latch.clock.epochSeconds, on: req.db)
        return profile
    }

    private func currentUser(_ req: Request) async throws -> User {
        guard let user = try await User.find(try req.signedIn.userID, on: req.db) else {
            throw LatchError.sessionExpired
        }
        return user
    }
}
