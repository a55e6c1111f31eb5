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
    let latch: LatchServices
    let database: RequestDatabase
    /// Apple's token endpoint, for the Apple grants revoked when an account is deleted.
    let appleTokens: AppleTokenEndpoint?

    func boot(routes: LatchRoutes) throws {
        let me = routes.grouped("v1", "me").signedIn()
        me.delete(use: delete)
        me.get("export", use: export)
    }

    func delete(_ req: LatchRequest) async throws -> AccountDeleted {
        let service = try accountLifecycle(req)
        let proof = req.hasBody ? try req.decodeJSON(DeleteAccountRequest.self).verificationToken : nil
        return try await service.delete(proof: proof)
    }

    func export(_ req: LatchRequest) async throws -> AccountExport {
        try await accountLifecycle(req).export(proof: req.query[String.self, at: "verification_token"])
    }
}

extension AccountLifecycleRoutes {
    /// The signed-in session's account deletion and export (`AccountLifecycleService`).
    func accountLifecycle(_ req: LatchRequest) throws -> AccountLifecycleService {
        AccountLifecycleService(
            latch: latch, caller: try req.caller, db: database(req), appleTokens: appleTokens, logger: req.logger)
    }
}
