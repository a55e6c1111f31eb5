import FluentKit
import Foundation
import SQLKit

/// Emailed 6-digit codes (registration, password reset, email link): 10 minutes, 5 tries, one send a
/// minute. The address's daily budgets (wrong guesses, sends) are kept by `GuessBudgetStore`: see
/// `SecretGuard.checkEmailCode` and `LatchServices.chargeCodeSend`. Codes are stored only as keyed hashes;
/// every counter changes in one atomic statement.
struct EmailCodeStore: Sendable {
    static let lifetime: Double = 600
    static let maximumAttempts = 5
    static let resendInterval: Double = 60

    let secrets: SecretBox

    /// A new code for (purpose, email), replacing any earlier one.
    struct Issued {
        let id: UUID
        let code: String
    }

    /// Issues a code unless one was sent for (purpose, email) less than a minute ago.
    /// Returns `nil` with the seconds to wait when rate limited.
    func issue(
        _ purpose: EmailCode.Purpose, email: String, passwordHash: String? = nil, nickname: String? = nil,
        now: Double, on database: any Database
    ) async throws -> Result<Issued, RateLimited> {
        let id = UUID()
        let code = RandomSecrets.sixDigitCode()
        let hash = codeHash(code, id: id)
        let rows = try await database.sql.raw(
            """
            INSERT INTO email_codes (id, purpose, email, code_hash, expires_at, attempts, sent_at, password_hash, nickname)
            VALUES (\(bind: id), \(bind: purpose.rawValue), \(bind: email), \(bind: hash), \(bind: now + Self.lifetime), 0,
                    \(bind: now), \(bind: passwordHash), \(bind: nickname))
            ON CONFLICT (purpose, email) DO UPDATE SET
              id = excluded.id, code_hash = excluded.code_hash, expires_at = excluded.expires_at, attempts = 0,
              sent_at = excluded.sent_at, password_hash = excluded.password_hash, nickname = excluded.nickname
            WHERE email_codes.sent_at <= \(bind: now - Self.resendInterval)
            RETURNING id
            """
        ).all()
        guard !rows.isEmpty else {
            let row = try await database.sql.raw(
                "SELECT sent_at FROM email_codes WHERE purpose = \(bind: purpose.rawValue) AND email = \(bind: email)"
            ).first()
            let sentAt = try row?.decode(column: "sent_at", as: Double.self) ?? now
            return .failure(RateLimited(retryAfter: Int((sentAt + Self.resendInterval - now).rounded(.up))))
        }
        return .success(Issued(id: id, code: code))
    }

    struct RateLimited: Error { let retryAfter: Int }

    /// The address (the row's `email`) of the live code selected by `id` or by (purpose, email), if
    /// one can still be guessed: not expired and with tries left.
    func liveTarget(
        _ purpose: EmailCode.Purpose, id: UUID? = nil, email: String? = nil, now: Double, on database: any Database
    ) async throws -> String? {
        let row = try await database.sql.raw(
            """
            SELECT email FROM email_codes
            WHERE purpose = \(bind: purpose.rawValue) AND \(selector(id: id, email: email))
              AND attempts < \(bind: Self.maximumAttempts) AND expires_at > \(bind: now)
            """
        ).first()
        return try row?.decode(column: "email", as: String.self)
    }

    /// What checking a code found.
    enum Check {
        case matched(MatchedCode)
        /// Wrong code; `attemptsRemaining` tries are left (0: the code is dead).
        case wrong(attemptsRemaining: Int)
    }

    /// Checks `code` for the pending code selected by `id` or by (purpose, email). Each check uses
    /// one of the 5 tries atomically before comparing; a match deletes the code (single use).
    func check(
        _ code: String, purpose: EmailCode.Purpose, id: UUID? = nil, email: String? = nil, now: Double,
        on database: any Database
    ) async throws -> Check {
        guard
            let row = try await database.sql.useAttempt(
                "email_codes", where: "purpose = \(bind: purpose.rawValue) AND \(selector(id: id, email: email))",
                maximum: Self.maximumAttempts, now: now, returning: ["id", "code_hash"])
        else { return .wrong(attemptsRemaining: 0) }
        let rowID = try row.decode(column: "id", as: UUID.self)
        let attempts = try row.decode(column: "attempts", as: Int.self)
        let stored = try row.decode(column: "code_hash", as: String.self)
        guard SecretBox.constantTimeEquals(codeHash(code, id: rowID), stored) else {
            return .wrong(attemptsRemaining: Self.maximumAttempts - attempts)
        }
        // Single use: only the request that deletes the row may act on it.
        let deleted = try await database.sql.raw(
            """
            DELETE FROM email_codes WHERE id = \(bind: rowID)
            RETURNING email, password_hash, nickname
            """
        ).all()
        guard let deletedRow = deleted.first else { return .wrong(attemptsRemaining: 0) }
        return .matched(
            MatchedCode(
                email: try deletedRow.decode(column: "email", as: String.self),
                passwordHash: try deletedRow.decode(column: "password_hash", as: String?.self),
                nickname: try deletedRow.decode(column: "nickname", as: String?.self)))
    }

    /// What a matched (and now used) code carried.
    struct MatchedCode {
        let email: String
        let passwordHash: String?
        let nickname: String?
    }

    private func selector(id: UUID?, email: String?) -> SQLQueryString {
        if let id { "id = \(bind: id)" } else { "email = \(bind: email ?? "")" }
    }

    private func codeHash(_ code: String, id: UUID) -> String {
        secrets.keyedHash(code, context: "email-code:\(id.uuidString.lowercased())")
    }
}
