import Fluent
import LatchCore
import Vapor

/// C2: `POST /v1/registrations` emails a code; `POST /v1/registrations/{id}/verify` creates the
/// account and signs it in. An address that already has an account gets a warning mail instead of a
/// code, and the answer is the same, so registration reveals nothing and changes nothing.
struct RegistrationRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let registrations = routes.grouped("v1", "registrations")
        registrations.post(use: register)
        registrations.post(":id", "verify", use: verify)
    }

    func register(_ req: Request) async throws -> Response {
        try req.chargeRateLimit(.registration)
        let body = try req.decodeJSON(RegistrationRequest.self)
        let latch = req.latch
        let email = try Validate.email(body.email)
        try Validate.newPassword(body.password, policy: latch.passwordPolicy, field: "password")
        guard body.termsAccepted else { throw LatchError.invalid("terms_accepted", ["must_accept"]) }
        let nickname = try Validate.nickname(body.nickname)

        let issued = try await req.emailCodeSender.send(
            .registration, to: email, storedAs: email.value, password: body.password, nickname: nickname,
            codeMail: MailTemplates.registrationCode(_:language:))
        let accepted = RegistrationAccepted(
            registrationId: issued.id.uuidString.lowercased(), expiresIn: Int(EmailCodeStore.lifetime))
        return try await accepted.encodeResponse(status: .accepted, for: req)
    }

    func verify(_ req: Request) async throws -> Response {
        try req.chargeRateLimit(.codeCheck)
        let body = try req.decodeJSON(VerifyCodeRequest.self)
        try Validate.sixDigitCode(body.code)
        let latch = req.latch
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw LatchError.wrongCode(attemptsRemaining: 0)
        }
        let now = latch.clock.now
        let pending = try await req.secretGuard.checkEmailCode(
            body.code, purpose: .registration, id: id, owner: nil, tell: .codeAddress)
        let user = User(
            email: pending.email, emailVerified: true, passwordHash: pending.passwordHash, nickname: pending.nickname,
            createdAt: now.timeIntervalSince1970)
        do {
            try await user.create(on: req.db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // The address has an account (this registration was the warning-only kind).
            throw LatchError.wrongCode(attemptsRemaining: 0)
        }
        try await req.newDeviceScreening.rememberDevice(Validate.deviceName(body.device?.id), of: try user.requireID())
        let tokens = try await latch.startSession(
            for: user, device: body.device, ip: req.clientIP, event: .registered, now: now, on: req.db
        )
        .tokens
        return try await tokens.encodeResponse(status: .created, for: req)
    }
}
