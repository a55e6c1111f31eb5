import Foundation
import HTTPTypes
import Hummingbird
import LatchCore

extension AdminUserPage: ResponseEncodable {}
extension AdminUserDetail: ResponseEncodable {}
extension AdminAuditPage: ResponseEncodable {}
extension UserImportReport: ResponseEncodable {}
extension PolicyView: ResponseEncodable {}

/// `/v1/admin/*` (issue 12 §2): the operators' API, authenticated by admin keys, every call audited.
/// The work is `AdminService`'s; these handlers only read the request and write the answer.
struct AdminRoutes: LatchRouteCollection {
    let admins: AdminKeyCheck

    func boot(routes: LatchRoutes) throws {
        let admin = routes.grouped("v1", "admin")
        admin.get("users", use: findUsers)
        admin.get("users", ":id", use: showUser)
        admin.get("users", ":id", "security-events", use: userSecurityEvents)
        admin.post("users", ":id", "unlock", use: action { try await $0.unlock($1) })
        admin.post("users", ":id", "disable", use: action { try await $0.disable($1) })
        admin.post("users", ":id", "enable", use: action { try await $0.enable($1) })
        admin.post("users", ":id", "sign-out", use: action { try await $0.signOut($1) })
        admin.delete("users", ":id", "totp", use: action { try await $0.resetTOTP($1) })
        admin.delete("users", ":id", "fund-password", use: action { try await $0.resetFundPassword($1) })
        admin.post("users", ":id", "freeze", use: action { try await $0.freeze($1) })
        admin.post("users", ":id", "unfreeze", use: action { try await $0.unfreeze($1) })
        admin.delete("users", ":id", "hold", use: action { try await $0.liftHold($1) })
        admin.delete("users", ":id", use: action { try await $0.deleteUser($1) })
        admin.get("audit", use: auditLog)
        admin.get("policy", use: policy)
        admin.post("imports", use: importUsers)
    }

    /// A handler that authenticates the admin key, runs `work` on the `{id}` user and answers 204.
    private func action(
        _ work: @escaping @Sendable (AdminService, String) async throws -> Void
    ) -> @Sendable (LatchRequest) async throws -> HTTPResponse.Status {
        { req in
            let admin = try await admins.service(for: req)
            try await work(admin, try req.userParameter)
            return .noContent
        }
    }

    func findUsers(_ req: LatchRequest) async throws -> AdminUserPage {
        let admin = try await admins.service(for: req)
        return try await admin.findUsers(
            matching: req.query[String.self, at: "q"], cursor: req.query[String.self, at: "cursor"],
            limit: try req.pageLimitParameter)
    }

    /// Imports a batch of users (issue 45 §1, docs/IMPORT.md).
    func importUsers(_ req: LatchRequest) async throws -> UserImportReport {
        let admin = try await admins.service(for: req)
        return try await admin.importBatch(try req.decodeJSON(AdminImportBatch.self))
    }

    /// The verification policy latchd runs (issue 30 §1).
    func policy(_ req: LatchRequest) async throws -> PolicyView {
        try await admins.service(for: req).policy()
    }

    func showUser(_ req: LatchRequest) async throws -> AdminUserDetail {
        let admin = try await admins.service(for: req)
        return try await admin.user(try req.userParameter)
    }

    func userSecurityEvents(_ req: LatchRequest) async throws -> SecurityEventPage {
        let admin = try await admins.service(for: req)
        return try await admin.securityEvents(
            of: try req.userParameter, cursor: req.query[String.self, at: "cursor"], limit: try req.pageLimitParameter)
    }

    func auditLog(_ req: LatchRequest) async throws -> AdminAuditPage {
        let admin = try await admins.service(for: req)
        return try await admin.auditLog(cursor: req.query[String.self, at: "cursor"], limit: try req.pageLimitParameter)
    }
}

extension LatchRequest {
    /// The `{id}` of an admin user route (checked by `AdminService`: not a user → 404).
    fileprivate var userParameter: String {
        get throws {
            guard let id = parameters.get("id") else { throw LatchError.notFound }
            return id
        }
    }
}
