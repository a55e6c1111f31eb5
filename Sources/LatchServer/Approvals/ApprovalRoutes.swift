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
    func boot(routes: LatchRoutes) throws {
        let approvals = routes.grouped("v1", "approvals")
        approvals.post(use: create)
        let signedIn = approvals.grouped(RequireSignedIn())
        signedIn.get(use: list)
        signedIn.get(":id", use: view)
        signedIn.post(":id", "decision", use: decide)
    }

    /// Charged per address, then per asking device; a DPoP proof binds the session it may become.
    func create(_ req: LatchRequest) async throws -> Response {
        try req.chargeRateLimit(.approval)
        let body = try req.decodeJSON(ApprovalRequest.self)
        if let device = Validate.deviceName(body.device?.id) {
            try req.chargeRateLimit(.approval, client: "device:" + device)
        }
        let key = try await req.latch.dpop.grantKey(
            proofs: req.headers[values: .dpop], req.dpopPresentation, now: req.latch.clock.epochSeconds, on: req.db)
        let created = try await req.approvals.create(body, ip: req.clientIP, dpopKey: key)
        return try created.encodeResponse(status: .created, for: req)
    }

    /// The caller's verifications waiting for a phone (issue 43 §2).
    func list(_ req: LatchRequest) async throws -> PendingPushApprovals {
        try await req.pushApprovals.list()
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

    /// `PushApprovalService` for the signed-in caller.
    var pushApprovals: PushApprovalService {
        get throws { PushApprovalService(latch: latch, caller: try caller, db: db) }
    }
}
