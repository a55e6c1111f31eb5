import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of TOTP 2FA (D1) and the fund password (D2): each handler parses its request once and
/// calls one method of `SecondFactorService`, where the rules are (issue 29 §1).
struct SecondFactorRoutes: LatchRouteCollection {
    let latch: LatchServices
    let metrics: LatchMetrics
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        let v1 = routes.grouped("v1").signedIn()
        v1.post("mfa", "totp", use: enrollTOTP)
        v1.post("mfa", "totp", "activate", use: activateTOTP)
        v1.delete("mfa", "totp", use: disableTOTP)
        v1.put("fund-password", use: setFundPassword)
    }

    func enrollTOTP(_ req: LatchRequest) async throws -> TOTPEnrollment {
        let proof =
            req.hasBody
            ? try req.decodeJSON(OptionalProof.self).verificationToken : nil
        return try await secondFactors(req).enrollTOTP(proof: proof)
    }

    func activateTOTP(_ req: LatchRequest) async throws -> TOTPActivated {
        let body = try req.decodeJSON(TOTPActivationRequest.self)
        return try await secondFactors(req).activateTOTP(code: body.code)
    }

    func disableTOTP(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let body = try req.decodeJSON(VerificationTokenBody.self)
        try await secondFactors(req).disableTOTP(proof: body.verificationToken)
        return .noContent
    }

    func setFundPassword(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        try await secondFactors(req).setFundPassword(try req.decodeJSON(FundPasswordRequest.self))
        return .noContent
    }
}

extension SecondFactorRoutes {
    /// `SecondFactorService` for the signed-in session.
    func secondFactors(_ req: LatchRequest) throws -> SecondFactorService {
        let db = database(req)
        return SecondFactorService(
            latch: latch, caller: try req.caller, db: db,
            secretGuard: SecretGuard(
                latch: latch, metrics: metrics, db: db, clientIP: req.clientIP, language: req.language))
    }
}

/// A body that may carry a verification token.
private struct OptionalProof: Decodable {
    var verificationToken: String?

    enum CodingKeys: String, CodingKey { case verificationToken = "verification_token" }
}
