import Fluent
import Foundation
import LatchCore
import SQLKit

/// What the password reset by emailed code also ends (issue 28 §2): what a thief who got in once may
/// have planted to come back — a TOTP or a sign-in identity added within the hold window (at least
/// `plantedWindow`), and "verify unusual sign-ins" turned off. Older factors and identities are kept
/// (the reset mail lists them, `kept`): removing them could strip the owner's own.
extension SecurityReset {
    /// The shortest window whose additions the reset ends, also when holds are off.
    static let plantedWindow: Double = 24 * 3600

    /// Ends the TOTP (with its recovery codes) and the identities added since `since`, and turns "verify
    /// unusual sign-ins" back on; records `totp_disabled` / `identity_unlinked` (detail
    /// `ended_by_password_reset`) for each.
    static func endPlanted(
        of user: UUID, since: Double, ip: String?, now: Double, events: SecurityEventLog, on database: any Database
    ) async throws {
        let sql = database.sql
        let detail = "ended_by_password_reset"
        let totp = try await sql.raw(
            """
            DELETE FROM totp_credentials WHERE user_id = \(bind: user) AND active = \(bind: true)
              AND created_at >= \(bind: since)
            RETURNING user_id
            """
        ).all()
        if !totp.isEmpty {
            try await sql.raw("DELETE FROM recovery_codes WHERE user_id = \(bind: user)").run()
            try await events.record(.totpDisabled, user: user, ip: ip, now: now, detail: detail, on: database)
        }
        let identities = try await sql.raw(
            """
            DELETE FROM identities WHERE user_id = \(bind: user) AND created_at >= \(bind: since) RETURNING provider
            """
        ).all()
        for identity in identities {
            let provider = try identity.decode(column: "provider", as: String.self)
            try await events.record(
                .identityUnlinked, user: user, ip: ip, now: now, detail: "\(detail):\(provider)", on: database)
        }
        try await sql.raw(
            "UPDATE users SET verify_unusual_sign_ins = \(bind: true) WHERE id = \(bind: user)"
        ).run()
    }

    /// The ways in and factors the reset kept, as the reset mail names them (`MailTemplates.keptName`).
    static func kept(of user: UUID, on database: any Database) async throws -> [String] {
        let sql = database.sql
        var kept: [String] = []
        let identities = try await sql.raw(
            "SELECT provider FROM identities WHERE user_id = \(bind: user) ORDER BY provider"
        ).all().map { try $0.decode(column: "provider", as: String.self) }
        kept += identities
        if try await sql.raw(
            "SELECT user_id FROM totp_credentials WHERE user_id = \(bind: user) AND active = \(bind: true)"
        ).first() != nil {
            kept.append("totp")
        }
        if try await sql.raw("SELECT user_id FROM fund_passwords WHERE user_id = \(bind: user)").first() != nil {
            kept.append("fund_password")
        }
        return kept
    }
}
