import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of `ProfileService`: `GET`/`PATCH /v1/me`, the signed-in user.
struct ProfileRoutes: LatchRouteCollection {
    let latch: LatchServices
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        let me = routes.grouped("v1", "me").signedIn()
        me.get(use: showFromCacheOrLoad)
        me.patch(use: update)
    }

    /// `GET /v1/me` (issue 21): a profile this instance loaded within 5 s is answered with its stored body;
    /// otherwise `show` loads it.
    func showFromCacheOrLoad(_ req: LatchRequest) async throws -> Response {
        if let me = try? req.signedIn,
            let profile = latch.accounts.profiles.rememberedProfile(
                of: me.userID, now: latch.clock.epochSeconds)
        {
            return Response.json(profile.json)
        }
        return try await show(req)
    }

    func show(_ req: LatchRequest) async throws -> Response {
        Response.json(try await profile(req).show().json)
    }

    func update(_ req: LatchRequest) async throws -> UserInfo {
        let service = try profile(req)
        let body = try req.decodeJSON(UpdateProfileRequest.self)
        return try await service.updateNickname(try Validate.nickname(body.nickname))
    }
}

extension ProfileRoutes {
    /// The signed-in session's profile (`ProfileService`).
    func profile(_ req: LatchRequest) throws -> ProfileService {
        ProfileService(latch: latch, caller: try req.caller, db: database(req))
    }
}
