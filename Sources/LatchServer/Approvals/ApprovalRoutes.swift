import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

extension ApprovalCreated: ResponseEncodable {}
extension ApprovalDetails: ResponseEncodable {}
extension ApprovalDecided: ResponseEncodable {}
extension PushApprovalStarted: ResponseEncodable {}
extension AttemptAnswer: ResponseEncodable {}
extension PendingPushApprovals: ResponseEncodable {}
extension PushApprovalDetails: ResponseEncodable {}
extension PushApprovalDenied: ResponseEncodable {}

/// The HTTP edge of `ApprovalService` (issue 43 §1): `POST /v1/approvals` (no sign-in, rate limited per
/// address), `GET /v1/approvals/{id}?scan_secret=` and `POST /v1/approvals/{id}/decision` (signed in).
struct ApprovalRoutes: LatchRouteCollection {
    let latch: LatchServices
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        let approvals = routes.grouped("v1", "approvals")
        approvals.post(use: create)
        let signedIn = approvals.signedIn()
        signedIn.get(use: list)
        signedIn.get(":id", use: view)
        signedIn.post(":id", "decision", use: decide)
    }

    /// Charged per address, then per asking device; a DPoP proof binds the session it may become.
    func create(_ req: LatchRequest) async throws -> Response {
        try latch.chargeRateLimit(.approval, for: req)
        let body = try req.decodeJSON(ApprovalRequest.self)
        if let device = Validate.deviceName(body.device?.id) {
            try latch.chargeRateLimit(.approval, for: req, client: "device:" + device)
        }
        let key = try await latch.dpop.grantKey(
            proofs: req.headers[values: .dpop], latch.dpop.presentation(of: req), now: latch.clock.epochSeconds,
            on: database(req))
        let created = try await approvals(req).create(body, ip: req.clientIP, dpopKey: key)
        return try created.encodeResponse(status: .created, for: req)
    }

    /// The caller's verifications waiting for a phone (issue 43 §2).
    func list(_ req: LatchRequest) async throws -> PendingPushApprovals {
        try await pushApprovals(req).list()
    }

    func view(_ req: LatchRequest) async throws -> ApprovalDetails {
        try await approvals(req).view(
            req.idParameter, scanSecret: req.query[String.self, at: "scan_secret"], by: try req.caller)
    }

    func decide(_ req: LatchRequest) async throws -> ApprovalDecided {
        let body = try req.decodeJSON(ApprovalDecisionRequest.self)
        return try await approvals(req).decide(
            req.idParameter, try ApprovalDecision(body), scanSecret: body.scanSecret, by: try req.caller)
    }
}

extension ApprovalRoutes {
    /// `ApprovalService` on `req`'s database.
    func approvals(_ req: LatchRequest) -> ApprovalService { ApprovalService(latch: latch, db: database(req)) }

    /// `PushApprovalService` for the signed-in caller.
    func pushApprovals(_ req: LatchRequest) throws -> PushApprovalService {
        PushApprovalService(latch: latch, caller: try req.caller, db: database(req))
    }
}
