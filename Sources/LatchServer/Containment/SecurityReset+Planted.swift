import FluentKit
import Foundation
import LatchCore
import SQLKit

/// What the password reset by emailed code also ends (issue 28 §2): what a thief who got in once may
/// have planted to come back — a TOTP or a sign-in identity that a session other than the one that
/// registered the account added within the hold window (at least `plantedWindow`), and "verify unusual
/// sign-ins" turned off. Older factors and identities, those made with the account and the new user's own
/// setup are kept (the reset mail lists them, `kept`): removing them could strip the owner's own.
extension SecurityReset {
    /// The shortest window whose additions the reset ends, also when holds are off.
    static let plantedWindow: Double = 24 * 3600

    /// Ends the TOTP (with its recovery codes) and the identities added since `since`, and turns "verify
    /// unusual sign-ins" back on; records `totp_disabled` / `identity_unlinked` (detail
    /// `ended_by_password_reset`) for each.
    static func endPlanted(
        of user: UUID, since: Double, ip: String?, now: Double, events: SecurityEventLog, accounts: AccountStore,
        on database: any Database
    ) async throws {
        let sql = database.sql
        let detail = "ended_by_password_reset"
        let planted = try await plantedCondition(of: user, since: since, accounts: accounts, on: database)
        let totp = try await sql.raw(
            """
            DELETE FROM totp_credentials WHERE user_id = \(bind: user) AND active = \(bind: true) \(planted)
            RETURNING user_id
            """
        ).all()
        if !totp.isEmpty {
            try await sql.raw("DELETE FROM recovery_codes WHERE user_id = \(bind: user)").run()
            try await events.record(.totpDisabled, user: user, ip: ip, now: now, detail: detail, on: database)
        }
        let identities = try await sql.raw(
            """
            DELETE FROM identities WHERE user_id = \(bind: user) \(planted) RETURNING provider
            """
        ).all()
        for identity in identities {
            let provider = try identity.decode(column: "provider", as: String.self)
            try await events.record(
                .identityUnlinked, user: user, ip: ip, now: now, detail: "\(detail):\(provider)", on: database)
        }
        try await accounts.requireUnusualSignInCheck(of: user, on: database)
    }

    /// Whether the active TOTP of `user` is one the reset would end (`endPlanted`): a frozen account's
    /// recovery does not ask for it.
    static func hasPlantedTOTP(of user: UUID, since: Double, accounts: AccountStore, on database: any Database)
        async throws -> Bool
    {
        let planted = try await plantedCondition(of: user, since: since, accounts: accounts, on: database)
        return try await database.sql.raw(
            "SELECT user_id FROM totp_credentials WHERE user_id = \(bind: user) AND active = \(bind: true) \(planted)"
        ).first() != nil
    }

    /// `AND …`: added since `since` by a session, not the one that registered the account.
    private static func plantedCondition(
        of user: UUID, since: Double, accounts: AccountStore, on database: any Database
    ) async throws -> SQLQueryString {
        let registering = try await accounts.registeringSession(of: user, on: database)
        // No registering session recorded (an account older than issue 28): every session's additions count.
        let owner = registering ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        return "AND created_at >= \(bind: since) AND session_id IS NOT NULL AND session_id <> \(bind: owner)"
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
