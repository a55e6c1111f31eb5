import FluentKit
import Foundation
import SQLKit

/// Texted 6-digit sign-in codes (C1): 5 minutes, 5 tries, single use; per number at most one send a
/// minute and 10 a day, per client IP at most 20 sends an hour. Every counter changes in one atomic
/// statement, so the limits hold under concurrency and across latchd processes.
struct SMSCodeStore: Sendable {
    static let lifetime: Double = 300
    static let maximumAttempts = 5
    static let resendInterval: Double = 60
    static let dailyLimit = 10
    static let day: Double = 24 * 3600
    static let ipLimit = 20
    static let ipWindow: Double = 3600

    let secrets: SecretBox

    struct RateLimited: Error { let retryAfter: Int }

    /// Counts a send from `ip`; refuses it when the IP's hourly allowance is used up.
    func admitSend(from ip: String?, now: Double, on database: any Database) async throws -> RateLimited? {
        let key = "ip:\(ip ?? "unknown")"
        let expired = now - Self.ipWindow
        let rows = try await database.sql.raw(
            """
            INSERT INTO sms_send_windows (key, window_start, count) VALUES (\(bind: key), \(bind: now), 1)
            ON CONFLICT (key) DO UPDATE SET
              window_start = CASE WHEN sms_send_windows.window_start <= \(bind: expired) THEN excluded.window_start
                                  ELSE sms_send_windows.window_start END,
              count = CASE WHEN sms_send_windows.window_start <= \(bind: expired) THEN 1 ELSE sms_send_windows.count + 1 END
            WHERE sms_send_windows.window_start <= \(bind: expired) OR sms_send_windows.count < \(bind: Self.ipLimit)
            RETURNING count
            """
        ).all()
        guard rows.isEmpty else { return nil }
        let row = try await database.sql.raw("SELECT window_start FROM sms_send_windows WHERE key = \(bind: key)")
            .first()
        let start = try row?.decode(column: "window_start", as: Double.self) ?? now
        return RateLimited(retryAfter: Int((start + Self.ipWindow - now).rounded(.up)))
    }

    /// A new code for `phone`, replacing any earlier one, unless the number's limits refuse it.
    func issue(phone: String, now: Double, on database: any Database) async throws -> Result<String, RateLimited> {
        let codeID = UUID()
        let code = RandomSecrets.sixDigitCode()
        let hash = codeHash(code, phone: phone, codeID: codeID)
        let dayOver = now - Self.day
        let rows = try await database.sql.raw(
            """
            INSERT INTO sms_codes (phone, code_id, code_hash, expires_at, attempts, sent_at, day_start, day_count)
            VALUES (\(bind: phone), \(bind: codeID), \(bind: hash), \(bind: now + Self.lifetime), 0, \(bind: now), \(bind: now), 1)
            ON CONFLICT (phone) DO UPDATE SET
              code_id = excluded.code_id, code_hash = excluded.code_hash, expires_at = excluded.expires_at, attempts = 0,
              sent_at = excluded.sent_at,
              day_start = CASE WHEN sms_codes.day_start <= \(bind: dayOver) THEN excluded.day_start ELSE sms_codes.day_start END,
              day_count = CASE WHEN sms_codes.day_start <= \(bind: dayOver) THEN 1 ELSE sms_codes.day_count + 1 END
            WHERE sms_codes.sent_at <= \(bind: now - Self.resendInterval)
              AND (sms_codes.day_start <= \(bind: dayOver) OR sms_codes.day_count < \(bind: Self.dailyLimit))
            RETURNING phone
            """
        ).all()
        guard rows.isEmpty else { return .success(code) }
        let row = try await database.sql.raw(
            "SELECT sent_at, day_start, day_count FROM sms_codes WHERE phone = \(bind: phone)"
        ).first()
        let sentAt = try row?.decode(column: "sent_at", as: Double.self) ?? now
        let dayStart = try row?.decode(column: "day_start", as: Double.self) ?? now
        let dayCount = try row?.decode(column: "day_count", as: Int.self) ?? 0
        var wait = sentAt + Self.resendInterval - now
        if dayCount >= Self.dailyLimit, dayStart > dayOver { wait = max(wait, dayStart + Self.day - now) }
        return .failure(RateLimited(retryAfter: Int(wait.rounded(.up))))
    }

    /// What checking a code found.
    enum Check: Equatable {
        case matched
        /// Wrong; `attemptsRemaining` tries are left for this code (0: it is dead).
        case wrong(attemptsRemaining: Int)
    }

    /// Whether `phone` has a code that can still be guessed (not expired, tries left).
    func hasLiveCode(phone: String, now: Double, on database: any Database) async throws -> Bool {
        try await database.sql.raw(
            """
            SELECT phone FROM sms_codes
            WHERE phone = \(bind: phone) AND attempts < \(bind: Self.maximumAttempts) AND expires_at > \(bind: now)
            """
        ).first() != nil
    }

    /// Uses one of the code's tries (atomically, before comparing); a match uses the code up.
    func check(_ code: String, phone: String, now: Double, on database: any Database) async throws -> Check {
        guard
            let row = try await database.sql.useAttempt(
                "sms_codes", where: "phone = \(bind: phone)", maximum: Self.maximumAttempts, now: now,
                returning: ["code_id", "code_hash"])
        else { return .wrong(attemptsRemaining: 0) }
        let codeID = try row.decode(column: "code_id", as: UUID.self)
        let attempts = try row.decode(column: "attempts", as: Int.self)
        let stored = try row.decode(column: "code_hash", as: String.self)
        guard SecretBox.constantTimeEquals(codeHash(code, phone: phone, codeID: codeID), stored) else {
            return .wrong(attemptsRemaining: Self.maximumAttempts - attempts)
        }
        // Single use: only the request that ends this code's life may act on it. The row stays (its send counters).
        let used = try await database.sql.raw(
            """
            UPDATE sms_codes SET expires_at = 0
            WHERE phone = \(bind: phone) AND code_id = \(bind: codeID) AND expires_at > \(bind: now)
            RETURNING phone
            """
        ).all()
        return used.isEmpty ? .wrong(attemptsRemaining: 0) : .matched
    }

    private func codeHash(_ code: String, phone: String, codeID: UUID) -> String {
        secrets.keyedHash(code, context: "sms-code:\(phone):\(codeID.uuidString.lowercased())")
    }
}
