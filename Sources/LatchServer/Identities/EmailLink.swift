import FluentKit
import Foundation
import LatchCore
import SQLKit

/// Adding an email and password to an account that has none (an Apple, WeChat or phone account), in
/// two calls of `POST /v1/me/identities` with `provider: "email"`: the first (`email`, `password`) mails
/// a code, the second (`email`, `code`) adds the address, verified, with that password.
///
/// The answer to the first call is the same whether or not another account has the address (no
/// enumeration): that account's owner gets a notice instead of a code, so the second call cannot pass.
struct EmailLink: Sendable {
    let latch: LatchServices
    let secretGuard: SecretGuard
    let db: any Database
    let userID: UUID
    /// The session linking the address (kept as `users.email_session_id`, issue 28 §2).
    var session: UUID?

    /// First call: checks the address and password and mails a code (202).
    func sendCode(email rawEmail: String?, password: String?) async throws -> EmailLinkCodeSent {
        let email = try Validate.email(rawEmail.required("email"))
        let password = try password.required("password")
        try Validate.newPassword(password, policy: latch.passwordPolicy, field: "password")
        try await requireNoEmail()
        _ = try await EmailCodeSender(latch: latch, db: db, language: secretGuard.language).send(
            .linkEmail, to: email, storedAs: Self.key(userID, email.value), password: password,
            codeMail: MailTemplates.emailLinkCode(_:language:))
        return EmailLinkCodeSent(expiresIn: Int(EmailCodeStore.lifetime))
    }

    /// Second call: the mailed code adds the address (verified) and the password to the account, and
    /// `andThen` runs in the same transaction (the event, hold and notice of issue 20 §1) with the address
    /// removed from the account before, if any (`users.previous_email`, which this clears).
    func confirm(
        email rawEmail: String?, code: String,
        andThen: @escaping @Sendable (any Database, _ previous: String?) async throws -> Void
    ) async throws {
        let email = try Validate.email(rawEmail.required("email"))
        try Validate.sixDigitCode(code)
        try await requireNoEmail()
        let me = try await latch.accounts.user(userID, on: db)
        let matched = try await secretGuard.checkEmailCode(
            code, purpose: .linkEmail, email: Self.key(userID, email.value), owner: me, tell: .address(email.value))
        // One conditional update: only an account that still has no email gets this one, also when
        // two links of one account race (the unique email index settles races between accounts).
        let (userID, session, now, accounts) = (self.userID, self.session, latch.clock.epochSeconds, latch.accounts)
        try await db.tracedTransaction { database in
            let linked: Bool
            do {
                linked = try await accounts.linkEmail(
                    email.value, passwordHash: matched.passwordHash, to: userID, session: session, now: now,
                    on: database)
            } catch let error as any DatabaseError where error.isConstraintFailure {
                throw LatchError(.conflict, field: "email", reasons: ["identity_in_use"])
            }
            guard linked else { throw Self.alreadyLinked }
            let previous = try await accounts.takePreviousEmail(of: userID, on: database)
            try await andThen(database, previous)
        }
    }

    private func requireNoEmail() async throws {
        guard let user = try await latch.accounts.user(userID, on: db) else { throw LatchError.sessionExpired }
        guard user.email == nil else { throw Self.alreadyLinked }
    }

    private static let alreadyLinked = LatchError(
        .conflict, field: "provider", reasons: ["provider_already_linked"])

    private static func key(_ userID: UUID, _ email: String) -> String { "\(userID.uuidString.lowercased()):\(email)" }
}
