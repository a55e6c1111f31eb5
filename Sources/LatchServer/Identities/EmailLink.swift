import Fluent
import Foundation
import LatchCore
import SQLKit
import Vapor

extension EmailLinkCodeSent: Content {}

/// Adding an email and password to an account that has none (an Apple, WeChat or phone account), in
/// two calls of `POST /v1/me/identities` with `provider: "email"`: the first (`email`, `password`) mails
/// a code, the second (`email`, `code`) adds the address, verified, with that password.
///
/// The answer to the first call is the same whether or not another account has the address (no
/// enumeration): that account's owner gets a notice instead of a code, so the second call cannot pass.
struct EmailLink {
    let req: Request
    let userID: UUID

    /// First call: checks the address and password and mails a code (202).
    func sendCode(email rawEmail: String?, password: String?) async throws -> Response {
        let latch = req.latch
        let email = try Validate.email(rawEmail ?? "")
        guard let password else { throw LatchError.invalid("password", ["missing"]) }
        try Validate.newPassword(password, policy: latch.passwordPolicy, field: "password")
        try await requireNoEmail()
        let owner = try await User.query(on: req.db).filter(\.$email == email.value).first()
        let now = latch.clock.epochSeconds
        // At most 10 codes a day to one address from linking, by any account.
        let send = try await req.chargeCodeSend(to: "\(EmailCode.Purpose.linkEmail.rawValue):\(email.value)")
        let issued: Result<EmailCodeStore.Issued, EmailCodeStore.RateLimited>
        do {
            let passwordHash = try await latch.passwords.hash(password)
            // A code row is written in both cases, so the rate limit answers alike too.
            issued = try await latch.emailCodes.issue(
                .linkEmail, email: Self.key(userID, email.value), passwordHash: passwordHash, now: now, on: req.db)
        } catch {
            try? await req.refundCodeSend(send)
            throw error
        }
        switch issued {
        case .failure(let limited):
            try await req.refundCodeSend(send)
            throw LatchError.rateLimited(retryAfter: limited.retryAfter)
        case .success(let issued):
            if owner == nil {
                try await latch.send(
                    MailTemplates.emailLinkCode(issued.code, language: req.language), to: email.value, code: issued.code
                )
            } else {
                try await latch.send(
                    MailTemplates.registrationAttemptOnExistingAccount(language: req.language), to: email.value)
            }
        }
        return try await EmailLinkCodeSent(expiresIn: Int(EmailCodeStore.lifetime)).encodeResponse(
            status: .accepted, for: req)
    }

    /// Second call: the mailed code adds the address (verified) and the password to the account.
    func confirm(email rawEmail: String?, code: String) async throws {
        let email = try Validate.email(rawEmail ?? "")
        try Validate.sixDigitCode(code)
        try await requireNoEmail()
        let me = try await User.find(userID, on: req.db)
        let matched = try await req.checkEmailCode(
            code, purpose: .linkEmail, email: Self.key(userID, email.value), owner: me, tell: .address(email.value))
        // One conditional update: only an account that still has no email gets this one, also when
        // two links of one account race (the unique email index settles races between accounts).
        let linked: [any SQLRow]
        do {
            linked = try await req.db.sql.raw(
                """
                UPDATE users SET email = \(bind: email.value), email_verified = \(bind: true),
                  password_hash = \(bind: matched.passwordHash)
                WHERE id = \(bind: userID) AND email IS NULL AND deleted_at IS NULL
                RETURNING id
                """
            ).all()
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw LatchError(.conflict, field: "email", reasons: ["identity_in_use"])
        }
        guard !linked.isEmpty else { throw Self.alreadyLinked }
    }

    private func requireNoEmail() async throws {
        guard let user = try await User.find(userID, on: req.db) else { throw LatchError.sessionExpired }
        guard user.email == nil else { throw Self.alreadyLinked }
    }

    private static let alreadyLinked = LatchError(
        .conflict, field: "provider", reasons: ["provider_already_linked"])

    private static func key(_ userID: UUID, _ email: String) -> String { "\(userID.uuidString.lowercased()):\(email)" }
}
