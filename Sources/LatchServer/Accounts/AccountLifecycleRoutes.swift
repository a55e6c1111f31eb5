import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

extension AccountExport: ResponseEncodable {}
extension AccountDeleted: ResponseEncodable {}

/// The HTTP edge of `AccountLifecycleService`: `DELETE /v1/me` (optional body `{verification_token}`)
/// answers `{apple_revocation}`; `GET /v1/me/export` takes its proof as `?verification_token=` (a GET has
/// no body).
struct AccountLifecycleRoutes: LatchRouteCollection {
    func boot(routes: LatchRoutes) throws {
        let me = routes.grouped("v1", "me").grouped(RequireSignedIn())
        me.delete(use: delete)
        me.get("export", use: export)
    }

    func delete(_ req: LatchRequest) async throws -> AccountDeleted {
        let service = try req.accountLifecycle
        let proof = req.hasBody ? try req.decodeJSON(DeleteAccountRequest.self).verificationToken : nil
        return try await service.delete(proof: proof)
    }

    func export(_ req: LatchRequest) async throws -> AccountExport {
        try await req.accountLifecycle.export(proof: req.query[String.self, at: "verification_token"])
    }
}

extension LatchRequest {
    /// The signed-in session's account deletion and export (`AccountLifecycleService`).
    var accountLifecycle: AccountLifecycleService {
        get throws {
            AccountLifecycleService(
                latch: latch, caller: try caller, db: db, appleTokens: identityServices.appleTokens, logger: logger)
        }
    }
}
