import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of step-up verification (`VerificationService`): each handler parses its request once,
/// calls one service method and writes the answer.
struct VerificationRoutes: LatchRouteCollection {
    let latch: LatchServices
    let metrics: LatchMetrics
    let database: RequestDatabase
    /// The check of `POST /v1/verifications/redeem` with a user's access token.
    let requireSignedIn: RequireSignedIn

    func boot(routes: LatchRoutes) throws {
        let verifications = routes.grouped("v1", "verifications")
        let signedIn = verifications.signedIn()
        signedIn.post(use: start)
        signedIn.post(":id", "attempts", use: attempt)
        signedIn.post(":id", "email-code", use: sendEmailCode)
        // Issue 43 §2: a verification asked of the phone.
        signedIn.get(":id", use: view)
        signedIn.post(":id", "deny", use: deny)
        verifications.post("redeem", use: redeem)
    }

    func start(_ req: LatchRequest) async throws -> Response {
        let service = try verifications(req)
        let body = try req.decodeJSON(VerificationRequest.self)
        try Validate.action(body.action)
        try Validate.parameters(body.parameters)
        if try req.decodeJSON(ApproveOnRequest.self).onDevice() {
            let started = try await service.startOnDevice(
                action: VerificationAction(body.action), parameters: body.parameters)
            return try started.encodeResponse(status: .created, for: req)
        }
        let started = try await service.start(action: VerificationAction(body.action), parameters: body.parameters)
        return try started.encodeResponse(status: .created, for: req)
    }

    /// A verification asked of the phone, as the caller may see it (`PushApprovalService.view`).
    func view(_ req: LatchRequest) async throws -> PushApprovalDetails {
        try await pushApprovals(req).view(req.idParameter)
    }

    /// The phone denies a verification asked of it.
    func deny(_ req: LatchRequest) async throws -> PushApprovalDenied {
        try await pushApprovals(req).deny(req.idParameter)
    }

    /// Mails the code of the verification's `email_code` factor: 202 with no body.
    func sendEmailCode(_ req: LatchRequest) async throws -> Response {
        let service = try verifications(req)
        guard let id = req.idParameter else { throw LatchError.notFound }
        try await service.sendEmailCode(id)
        return Response(status: .accepted, body: .init(byteBuffer: ByteBuffer()))
    }

    func attempt(_ req: LatchRequest) async throws -> Response {
        let service = try verifications(req)
        let body = try req.decodeJSON(VerificationAttempt.self)
        // An unknown `method` never gets here: decoding it answers 422 `method` `["unknown"]`.
        let (answer, id): (Answer, UUID)
        do {
            answer = try Answer(body)
            guard let parsed = req.idParameter else {
                throw LatchError.notFound
            }
            id = parsed
        } catch {
            // A refused attempt is counted by its method like any other (latch_verifications_total).
            metrics.verifications.increment(body.method.rawValue, LatchMetrics.outcome(of: error))
            throw error
        }
        let number = try req.decodeJSON(AttemptNumber.self).number
        return try await service.attempt(id, answer, number: number).encodeResponse(for: req)
    }

    /// Redeems with the user's access token, or with a service key (`LATCH_SERVICE_KEYS`) for the
    /// backend that executes the action: then the answer's `user_id` says whose proof it was.
    func redeem(_ req: LatchRequest) async throws -> RedeemedVerification {
        let presented = req.headers.bearerToken ?? ""
        let asService = latch.config.serviceKeys.contains { SecretBox.constantTimeEquals($0, presented) }
        var req = req
        if !asService { try await requireSignedIn.authenticate(&req) }
        let body = try req.decodeJSON(RedeemVerificationRequest.self)
        try Validate.action(body.action)
        try Validate.parameters(body.parameters)
        do {
            guard asService else {
                return try await Redemption(latch: latch).redeem(
                    body.verificationToken, action: VerificationAction(body.action), parameters: body.parameters,
                    by: try req.caller, on: database(req))
            }
            return try await Redemption(latch: latch).redeemAsService(
                body.verificationToken, action: VerificationAction(body.action), parameters: body.parameters,
                ip: req.clientIP, on: database(req))
        } catch let error as LatchError where error.code == .policyLimit {
            metrics.policyDecisions.increment("limit")
            throw error
        }
    }
}

extension VerificationRoutes {
    /// Step-up verification for the signed-in session (`VerificationService`).
    func verifications(_ req: LatchRequest) throws -> VerificationService {
        VerificationService(latch: latch, metrics: metrics, caller: try req.caller, db: database(req))
    }

    /// `PushApprovalService` for the signed-in caller.
    func pushApprovals(_ req: LatchRequest) throws -> PushApprovalService {
        PushApprovalService(latch: latch, caller: try req.caller, db: database(req))
    }
}
