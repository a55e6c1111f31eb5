import FluentKit
import Foundation
import LatchCore

/// C2 without HTTP (issue 29 §1): a registration emails a code; its verification creates the account and
/// signs it in. An address that already has an account gets a warning mail instead of a code, and the
/// answer is the same, so registration reveals nothing and changes nothing. `RegistrationRoutes` is its
/// HTTP edge.
struct RegistrationService: Sendable {
    let latch: LatchServices
    let metrics: LatchMetrics
    let db: any Database
    /// The client's address, for the session and the security events.
    let clientIP: String?
    /// The language of the mails and of the errors.
    let language: LatchLanguage
    /// The DPoP key the request proved: the new session is bound to it (issue 31 §1); nil: a bearer session.
    var dpopKey: String? = nil

    /// Mails a code to `email` (or the warning, when it has an account); `password` (checked against the
    /// policy by the edge) and `nickname` wait with the code until it is used.
    func register(email: EmailAddress, password: String, nickname: String?) async throws -> RegistrationAccepted {
        let issued = try await EmailCodeSender(latch: latch, db: db, language: language)
            .send(
                .registration, to: email, storedAs: email.value, password: password, nickname: nickname,
                codeMail: MailTemplates.registrationCode(_:language:))
        return RegistrationAccepted(
            registrationId: issued.id.uuidString.lowercased(), expiresIn: Int(EmailCodeStore.lifetime))
    }

    /// Creates the account of registration `id` with its mailed `code`, remembers `device` as its first,
    /// and answers the new session's tokens.
    func verify(_ id: UUID, code: String, device: DeviceInfo?) async throws -> TokenResponse {
        let now = latch.clock.now
        let pending = try await SecretGuard(
            latch: latch, metrics: metrics, db: db, clientIP: clientIP, language: language
        )
        .checkEmailCode(code, purpose: .registration, id: id, owner: nil, tell: .codeAddress)
        let user = User(
            email: pending.email, emailVerified: true, passwordHash: pending.passwordHash, nickname: pending.nickname,
            createdAt: now.timeIntervalSince1970)
        do {
            try await latch.accounts.create(user, on: db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // The address has an account (this registration was the warning-only kind).
            throw LatchError.wrongCode(attemptsRemaining: 0)
        }
        try await NewDeviceScreening(latch: latch, db: db, clientIP: clientIP, language: language)
            .rememberDevice(Validate.deviceName(device?.id), of: try user.requireID())
        return try await latch.startSession(
            for: user, device: device, ip: clientIP, event: .registered, method: .password, boundTo: dpopKey,
            now: now, on: db
        )
        .tokens
    }
}
