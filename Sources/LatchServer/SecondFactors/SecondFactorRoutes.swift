import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of TOTP 2FA (D1) and the fund password (D2): each handler parses its request once and
/// calls one method of `SecondFactorService`, where the rules are (issue 29 §1).
struct SecondFactorRoutes: LatchRouteCollection {
    func boot(routes: LatchRoutes) throws {
        let v1 = routes.grouped("v1").grouped(RequireSignedIn())
        v1.post("mfa", "totp", use: enrollTOTP)
        v1.post("mfa", "totp", "activate", use: activateTOTP)
        v1.delete("mfa", "totp", use: disableTOTP)
        v1.put("fund-password", use: setFundPassword)
    }

    func enrollTOTP(_ req: LatchRequest) async throws -> TOTPEnrollment {
        let proof =
            req.hasBody
            ? try req.decodeJSON(OptionalProof.self).verificationToken : nil
        return try await req.secondFactors.enrollTOTP(proof: proof)
    }

    func activateTOTP(_ req: LatchRequest) async throws -> TOTPActivated {
        let body = try req.decodeJSON(TOTPActivationRequest.self)
        return try await req.secondFactors.activateTOTP(code: body.code)
    }

    func disableTOTP(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let body = try req.decodeJSON(VerificationTokenBody.self)
        try await req.secondFactors.disableTOTP(proof: body.verificationToken)
        return .noContent
    }

    func setFundPassword(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        try await req.secondFactors.setFundPassword(try req.decodeJSON(FundPasswordRequest.self))
        return .noContent
    }
}

extension LatchRequest {
    /// `SecondFactorService` for the signed-in session.
    var secondFactors: SecondFactorService {
        get throws {
            SecondFactorService(latch: latch, caller: try caller, db: db, secretGuard: secretGuard)
        }
    }
}

/// A body that may carry a verification token.
private struct OptionalProof: Decodable {
    var verificationToken: String?

    enum CodingKeys: String, CodingKey { case verificationToken = "verification_token" }
}
