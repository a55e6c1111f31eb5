import FluentKit
import Foundation
import LatchCore

/// Mails a code that proves an address, for registration (C2) and for adding an email to an account
/// (`EmailLink`), without HTTP: the send is charged against the address's daily cap, the password
/// hashed (kept with the code until it is used), the code issued and mailed, and the send refunded when
/// no code goes out. An address that has an account already gets the "someone tried to register with
/// your address" mail instead of a code, with the same answer, so nothing tells the caller which.
struct EmailCodeSender {
    let latch: LatchServices
    let db: any Database
    /// The language of the mail.
    let language: LatchLanguage

    /// Sends a `purpose` code to `address`, its row stored under `key` (the address itself, or one
    /// scoped to an account), with the password's hash and `nickname` kept for when it is used.
    /// `codeMail` writes the mail carrying the code. 429 (`retry_after`) when the daily cap is reached
    /// or a code went to the address less than a minute ago.
    func send(
        _ purpose: EmailCode.Purpose, to address: EmailAddress, storedAs key: String, password: String,
        nickname: String? = nil, codeMail: (String, LatchLanguage) -> MailTemplates.Mail
    ) async throws -> EmailCodeStore.Issued {
        // At most 10 codes (or notices) a day to one address for one purpose, whether or not it has an account.
        let send = try await latch.chargeCodeSend(.emailCodeSends(purpose, target: address.value), on: db)
        let issued: Result<EmailCodeStore.Issued, EmailCodeStore.RateLimited>
        let hasAccount: Bool
        do {
            let passwordHash = try await latch.passwords.hash(password)
            hasAccount = try await latch.accounts.user(email: address.value, on: db) != nil
            // A code row is written in both cases, so the rate limit answers alike too.
            issued = try await latch.emailCodes.issue(
                purpose, email: key, passwordHash: passwordHash, nickname: nickname, now: latch.clock.epochSeconds,
                on: db)
        } catch {
            try? await latch.refundCodeSend(send, on: db)
            throw error
        }
        switch issued {
        case .failure(let limited):
            try await latch.refundCodeSend(send, on: db)
            throw LatchError.rateLimited(retryAfter: limited.retryAfter)
        case .success(let issued):
            if hasAccount {
                try await latch.send(
                    MailTemplates.registrationAttemptOnExistingAccount(language: language), to: address.value)
            } else {
                try await latch.send(codeMail(issued.code, language), to: address.value, code: issued.code)
            }
            return issued
        }
    }
}
