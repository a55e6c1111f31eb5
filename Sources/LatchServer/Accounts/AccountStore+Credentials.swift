import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The account's secrets and addresses on its row (`AccountStore`): the password hash, the email and the
/// address removed before it (issue 28 §2), the anti-phishing code (issue 19 §4), "verify unusual
/// sign-ins" and the session that registered the account.
extension AccountStore {
    /// Sets the password hash (a reset or a change).
    func setPasswordHash(_ hash: String, of id: UUID, on database: any Database) async throws {
        defer { profiles.forget(id) }
        try await database.sql.raw("UPDATE users SET password_hash = \(bind: hash) WHERE id = \(bind: id)").run()
    }

    /// Replaces the password hash `expected` with `hash` in one statement, only if it is still the one
    /// checked (issue 45 §2: an imported hash upgraded to latchd's own at sign-in).
    func replacePasswordHash(of id: UUID, expected: String, with hash: String, on database: any Database)
        async throws
    {
        defer { profiles.forget(id) }
        try await database.sql.raw(
            "UPDATE users SET password_hash = \(bind: hash) WHERE id = \(bind: id) AND password_hash = \(bind: expected)"
        ).run()
    }

    /// Gives an account without an address `email` (verified) and its password, by `session`; false when
    /// the account has an address already or is deleted. Throws the database's constraint failure when
    /// another account holds the address.
    func linkEmail(
        _ email: String, passwordHash: String?, to id: UUID, session: UUID?, now: Double, on database: any Database
    ) async throws -> Bool {
        defer { profiles.forget(id) }
        return try await !database.sql.raw(
            """
            UPDATE users SET email = \(bind: email), email_verified = \(bind: true),
              password_hash = \(bind: passwordHash), email_added_at = \(bind: now),
              email_session_id = \(bind: session)
            WHERE id = \(bind: id) AND email IS NULL AND deleted_at IS NULL
            RETURNING id
            """
        ).all().isEmpty
    }

    /// The address removed from the account before (`previous_email`), cleared as it is read.
    func takePreviousEmail(of id: UUID, on database: any Database) async throws -> String? {
        defer { profiles.forget(id) }
        let previous = try await database.sql.raw(
            "SELECT previous_email FROM users WHERE id = \(bind: id)"
        ).first()?.decode(column: "previous_email", as: String?.self)
        try await database.sql.raw("UPDATE users SET previous_email = NULL WHERE id = \(bind: id)").run()
        return previous
    }

    /// Removes the address and its password; the address is remembered (`previous_email`) so it hears
    /// of the next one added (issue 28 §2).
    func unlinkEmail(of id: UUID, on database: any Database) async throws {
        defer { profiles.forget(id) }
        try await database.sql.raw(
            """
            UPDATE users SET previous_email = email, email = NULL, email_verified = \(bind: false),
              password_hash = NULL
            WHERE id = \(bind: id)
            """
        ).run()
    }

    /// Sets (or, nil, removes) the anti-phishing code; false when there is no such account.
    func setAntiPhishingCode(_ code: String?, of id: UUID, on database: any Database) async throws -> Bool {
        defer { profiles.forget(id) }
        return try await database.sql.raw(
            "UPDATE users SET anti_phishing_code = \(bind: code) WHERE id = \(bind: id) RETURNING id"
        ).first() != nil
    }

    /// The anti-phishing code of the live account whose address is `address`, if it chose one.
    func antiPhishingCode(ofAddress address: String, on database: any Database) async throws -> String? {
        try await database.sql.raw(
            """
            SELECT anti_phishing_code FROM users WHERE email = \(bind: address) AND deleted_at IS NULL
            """
        ).first()?.decode(column: "anti_phishing_code", as: String?.self)
    }

    /// Turns "verify unusual sign-ins" back on (the password reset's end of what was planted, issue 28 §2).
    func requireUnusualSignInCheck(of id: UUID, on database: any Database) async throws {
        defer { profiles.forget(id) }
        try await database.sql.raw("UPDATE users SET verify_unusual_sign_ins = \(bind: true) WHERE id = \(bind: id)")
            .run()
    }

    /// Records the session that registered the account (issue 28 §2: its setup on a young account is
    /// not held).
    func setRegisteringSession(_ session: UUID, of id: UUID, on database: any Database) async throws {
        defer { profiles.forget(id) }
        try await database.sql.raw(
            "UPDATE users SET registering_session_id = \(bind: session) WHERE id = \(bind: id)"
        ).run()
    }

    /// The session that registered the account; nil when none is recorded (an account older than issue 28).
    func registeringSession(of id: UUID, on database: any Database) async throws -> UUID? {
        try await database.sql.raw(
            "SELECT registering_session_id FROM users WHERE id = \(bind: id)"
        ).first()?.decode(column: "registering_session_id", as: UUID?.self)
    }

    /// What a security change reads of the account: when it was made, by which session, and its address.
    struct Setup: Sendable {
        let createdAt: Double
        let registeringSession: UUID?
        let email: String?
    }

    /// The account's `Setup`; nil when there is no such account.
    func setup(of id: UUID, on database: any Database) async throws -> Setup? {
        guard
            let row = try await database.sql.raw(
                "SELECT created_at, registering_session_id, email FROM users WHERE id = \(bind: id)"
            ).first()
        else { return nil }
        return Setup(
            createdAt: try row.decode(column: "created_at", as: Double.self),
            registeringSession: try row.decode(column: "registering_session_id", as: UUID?.self),
            email: try row.decode(column: "email", as: String?.self))
    }
}
