import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of `PasswordService`: forgot, reset and change, each parsed and validated once.
struct PasswordRoutes: LatchRouteCollection {
    let latch: LatchServices
    let metrics: LatchMetrics
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        let password = routes.grouped("v1", "password")
        password.post("forgot", use: forgot)
        password.post("reset", use: reset)
        password.signedIn().post("change", use: change)
    }

    func forgot(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        try latch.chargeRateLimit(.codeSend, for: req)
        let body = try req.decodeJSON(ForgotPasswordRequest.self)
        let email = try Validate.email(body.email)
        try await passwordService(req).forgot(email)
        return .accepted
    }

    func reset(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        try latch.chargeRateLimit(.codeCheck, for: req)
        let body = try req.decodeJSON(ResetPasswordRequest.self)
        let email = try Validate.email(body.email)
        try Validate.sixDigitCode(body.code)
        try Validate.newPassword(body.newPassword, policy: latch.passwordPolicy, field: "new_password")
        if let secondFactor = body.secondFactor, secondFactor.count > 64 {
            throw LatchError.invalid("second_factor", ["too_long"])
        }
        try await passwordService(req).reset(
            email: email, code: body.code, newPassword: body.newPassword, secondFactor: body.secondFactor)
        return .noContent
    }

    func change(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let caller = try req.caller
        let body = try req.decodeJSON(ChangePasswordRequest.self)
        try Validate.presentedPassword(body.currentPassword, field: "current_password")
        try Validate.newPassword(body.newPassword, policy: latch.passwordPolicy, field: "new_password")
        try await passwordService(req).change(current: body.currentPassword, new: body.newPassword, by: caller)
        return .noContent
    }
}

extension PasswordRoutes {
    /// The password flows of `req` (`PasswordService`).
    func passwordService(_ req: LatchRequest) -> PasswordService {
        PasswordService(
            latch: latch, metrics: metrics, db: database(req), clientIP: req.clientIP, language: req.language)
    }
}
