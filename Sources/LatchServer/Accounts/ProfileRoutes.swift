import Fluent
import LatchCore
import Vapor

/// `GET`/`PATCH /v1/me`: the signed-in user.
struct ProfileRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let me = routes.grouped("v1", "me").grouped(RequireSignedIn())
        me.get(use: show)
        me.patch(use: update)
    }

    func show(_ req: Request) async throws -> Response {
        let me = try req.signedIn
        guard
            let profile = try await req.latch.profiles.profile(
                of: me.userID, now: req.latch.clock.epochSeconds, on: { req.db })
        else { throw LatchError.sessionExpired }
        var headers = HTTPHeaders()
        headers.contentType = .json
        return Response(status: .ok, headers: headers, body: .init(data: profile.json))
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
