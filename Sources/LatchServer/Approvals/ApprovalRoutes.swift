import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

extension ApprovalCreated: ResponseEncodable {}
extension ApprovalDetails: ResponseEncodable {}
extension ApprovalDecided: ResponseEncodable {}

/// The HTTP edge of `ApprovalService` (issue 43 §1): `POST /v1/approvals` (no sign-in, rate limited per
/// address), `GET /v1/approvals/{id}?scan_secret=` and `POST /v1/approvals/{id}/decision` (signed in).
struct ApprovalRoutes: LatchRouteCollection {
    func boot(routes: LatchRoutes) throws {
        let approvals = routes.grouped("v1", "approvals")
        approvals.post(use: create)
        let signedIn = approvals.grouped(RequireSignedIn())
        signedIn.get(":id", use: view)
        signedIn.post(":id", "decision", use: decide)
    }

    func create(_ req: LatchRequest) async throws -> Response {
        try req.chargeRateLimit(.deviceChallenge)
        let body = try req.decodeJSON(ApprovalRequest.self)
        let created = try await req.approvals.create(body, ip: req.clientIP)
        return try created.encodeResponse(status: .created, for: req)
    }

    func view(_ req: LatchRequest) async throws -> ApprovalDetails {
        try await req.approvals.view(
            req.idParameter, scanSecret: req.query[String.self, at: "scan_secret"], by: try req.caller)
    }

    func decide(_ req: LatchRequest) async throws -> ApprovalDecided {
        let body = try req.decodeJSON(ApprovalDecisionRequest.self)
        return try await req.approvals.decide(
            req.idParameter, try ApprovalDecision(body), scanSecret: body.scanSecret, by: try req.caller)
    }
}

extension LatchRequest {
    /// `ApprovalService` on this request's database.
    var approvals: ApprovalService { ApprovalService(latch: latch, db: db) }
}
