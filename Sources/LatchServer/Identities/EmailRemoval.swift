import FluentKit
import Foundation
import LatchCore
import SQLKit

/// Removing the account's email (issue 28 §2), in two calls of `DELETE /v1/me/identities/email`: the
/// first (a session signed in within 10 minutes) mails a code to the address being removed and answers
/// 202 `{expires_in}`; the second carries that `code`. A verification token for `unlink_identity` does
/// instead of the code. A thief with a fresh session alone cannot remove the owner's address: the owner's
/// mailbox has to agree, and it hears of the removal (with a freeze link) either way.
struct EmailRemoval: Sendable {
    let latch: LatchServices
    let secretGuard: SecretGuard
    let db: any Database
    let userID: UUID

    /// The account's address, if it has one.
    func currentAddress() async throws -> String? {
        try await latch.accounts.user(userID, on: db)?.email
    }

    /// Mails a removal code to `address` (at most 10 a day, like every code).
    func sendCode(to address: String) async throws -> EmailLinkCodeSent {
        let send = try await latch.chargeCodeSend(.emailCodeSends(.removeEmail, target: address), on: db)
        let issued = try await latch.emailCodes.issue(
            .removeEmail, email: Self.key(userID, address), now: latch.clock.epochSeconds, on: db)
        switch issued {
        case .failure(let limited):
            try await latch.refundCodeSend(send, on: db)
            throw LatchError.rateLimited(retryAfter: limited.retryAfter)
        case .success(let code):
            try await latch.send(
                MailTemplates.emailRemovalCode(code.code, language: secretGuard.language), to: address, code: code.code)
        }
        return EmailLinkCodeSent(expiresIn: Int(EmailCodeStore.lifetime))
    }

    /// Checks the mailed code (one guess against the address's budget of wrong codes).
    func checkCode(_ code: String, address: String) async throws {
        try Validate.sixDigitCode(code)
        let owner = try await latch.accounts.user(userID, on: db)
        _ = try await secretGuard.checkEmailCode(
            code, purpose: .removeEmail, email: Self.key(userID, address), owner: owner, tell: .address(address))
    }

    private static func key(_ userID: UUID, _ email: String) -> String { "\(userID.uuidString.lowercased()):\(email)" }
}
