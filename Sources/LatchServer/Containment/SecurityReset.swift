import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The security reset (issue 19 §1): the one operation that ends every way into an account that
/// existed before it, so a thief who got in once — a phished password and code, a borrowed phone, a
/// session that lived too long — keeps nothing he left behind.
///
/// It runs for the password reset by email code, a freeze (`AccountFreezing`), and an operator's
/// disable and sign-out-everywhere (`.everything`), and for a password change by the signed-in owner
/// (`.otherDevices`: the same for every device but this one).
///
/// `.everything` ends: every session (through `SessionRevocation`, so this instance's status cache and,
/// on PostgreSQL, every instance's hear of it at once; their refresh tokens die with them), every
/// device key and its pending challenges, every passkey and pending passkey registration, every known
/// device, every pending login challenge, every verification in progress and unredeemed verification
/// token, the pending password-reset and link codes of the account's address, the pending SMS code
/// of its phone, a TOTP enrolment not yet activated, and (issue 41 P3) every new-value lock and value not
/// yet trusted, with every value's trust that one of the ended sessions started (`PolicyValueLocks.discard`).
///
/// `.otherDevices` ends the sessions, device keys, passkeys and known devices of every *other*
/// device (a key or passkey registered by a session with this session's `device.id` is this device's;
/// one registered before sessions were recorded is another device's), every pending login challenge
/// and every unredeemed verification token.
///
/// Challenges, codes and tokens are expired rather than deleted, so whatever counts them (daily caps)
/// still sees them. Everything runs in one transaction that first writes the user's row, so resets,
/// freezes and sign-ins of one account take turns (the row lock on PostgreSQL, the write lock on SQLite);
/// each statement is a single conditional write.
///
/// `SecurityResetTests` lists every table that holds a user id and fails when one is neither in
/// `endedTables` nor in `keptTables`: the next way in that someone adds cannot silently survive.
enum SecurityReset {
    /// Whose trust to end.
    enum Scope: Sendable {
        /// Every way in of the account.
        case everything
        /// Every way in but the device of `session` (with `deviceID`, its `device.id`, if it sent one, and
        /// `knownDeviceID`, that id as `known_devices` stores it: `KnownDevice.storedID`).
        case otherDevices(keeping: UUID, deviceID: String?, knownDeviceID: String?)
    }

    /// What was ended.
    struct Ended: Sendable, Equatable {
        var sessions = 0
        var deviceKeys = 0
        var passkeys = 0
        var knownDevices = 0
        var verificationTokens = 0

        /// The `detail` of the `security_reset` security event.
        var detail: String {
            "sessions=\(sessions) device_keys=\(deviceKeys) passkeys=\(passkeys) verification_tokens=\(verificationTokens)"
        }
    }

    /// The tables holding a user id whose rows the reset ends (deletes, expires or revokes).
    static let endedTables: Set<String> = [
        "sessions", "device_credentials", "passkeys", "passkey_challenges", "known_devices", "login_challenges",
        "verifications", "verification_tokens", "totp_credentials", "policy_value_locks", "app_attest_challenges",
        "approvals", "push_approvals"
    ]

    /// The tables holding a user id that the reset keeps, and why.
    static let keptTables: [String: String] = [
        "users": "the account itself (the reset changes no setting of it; a freeze marks it)",
        "security_events": "the account's history: what the reset ended is recorded there",
        "outbound_events":
            "what the app's backend hears (issue 42): the reset's own events are among them, and none is a way in",
        "admin_audit_log": "the operators' audit trail",
        "identities":
            "the account's own sign-in identities (Apple, WeChat, phone): removing them could leave the owner no way in; linking one starts a hold and mails a notice with a freeze link; the password reset by email ends those linked within the hold window (endPlanted)",
        "recovery_codes": "a second factor, not a way in: removing it would let a mailbox thief strip 2FA",
        "fund_passwords": "a second factor for step-up, not a way in",
        "freeze_tokens": "the owner's \"this wasn't me\" links: not a way in, and they must keep working",
        "security_holds": "the hold a reset starts must outlive it",
        "notice_digests":
            "notices of changes already made, waiting for the digest mail: the owner must still hear of each (issue 20 §1)",
        "user_imports":
            "which imported line made the account (issue 45): its external id and the line's digest, no way in"
    ]

    /// A condition (`AND …`) that holds only while session `id` is live: a key or passkey registered by
    /// a request that authenticated just before a reset must not be inserted after it. On SQLite it sits
    /// in the insert's own statement (one writer at a time); on PostgreSQL the insert runs after locking
    /// the user's row, which the reset writes first, so the condition reads the reset's outcome.
    static func whileSessionLive(_ id: UUID?) -> SQLQueryString {
        guard let id else { return "" }
        return "AND EXISTS (SELECT 1 FROM sessions WHERE id = \(bind: id) AND revoked_at IS NULL)"
    }

    /// Throws AUTH_004 when session `id` has ended (see `whileSessionLive`).
    static func requireLiveSession(_ id: UUID?, on database: any Database) async throws {
        guard let id else { return }
        let live = try await database.sql.raw(
            "SELECT id FROM sessions WHERE id = \(bind: id) AND revoked_at IS NULL"
        ).first()
        guard live != nil else { throw LatchError.sessionExpired }
    }

    /// Ends `scope` of `user` in one transaction (or in the caller's, when `database` is one).
    static func run(
        _ scope: Scope, user: UUID, now: Double, revocation: SessionRevocation, on database: any Database
    ) async throws -> Ended {
        try await revocation.committing(on: database) { database in
            try await end(scope, user: user, now: now, revocation: revocation, on: database)
        }
    }

    private static func end(
        _ scope: Scope, user: UUID, now: Double, revocation: SessionRevocation, on database: any Database
    ) async throws -> Ended {
        let sql = database.sql
        // Concurrent resets of one account queue instead of deadlocking.
        try await database.lockUserRow(user)
        var ended = Ended()
        let endedSessions: [UUID]
        let keptSession: UUID?
        let removed: SQLQueryString
        let forgotten: SQLQueryString
        switch scope {
        case .everything:
            endedSessions = try await revocation.revoke(.all, of: user, now: now, on: database)
            keptSession = nil
            removed = "user_id = \(bind: user)"
            forgotten = "user_id = \(bind: user)"
        case .otherDevices(let session, let deviceID?, let knownDeviceID):
            endedSessions = try await revocation.revoke(.allExcept(session), of: user, now: now, on: database)
            keptSession = session
            removed = """
                user_id = \(bind: user) AND (session_id IS NULL OR session_id NOT IN (
                  SELECT id FROM sessions WHERE user_id = \(bind: user) AND (id = \(bind: session) OR device_id = \(bind: deviceID))))
                """
            forgotten = "user_id = \(bind: user) AND device_id <> \(bind: knownDeviceID ?? "")"
        case .otherDevices(let session, nil, _):
            endedSessions = try await revocation.revoke(.allExcept(session), of: user, now: now, on: database)
            keptSession = session
            removed = "user_id = \(bind: user) AND (session_id IS NULL OR session_id <> \(bind: session))"
            forgotten = "user_id = \(bind: user)"
        }
        ended.sessions = endedSessions.count
        try await sql.raw(
            """
            DELETE FROM signature_challenges WHERE credential_id IN (SELECT id FROM device_credentials WHERE \(removed))
            """
        ).run()
        ended.deviceKeys = try await sql.raw("DELETE FROM device_credentials WHERE \(removed) RETURNING id").all().count
        ended.passkeys = try await sql.raw("DELETE FROM passkeys WHERE \(removed) RETURNING id").all().count
        ended.knownDevices = try await sql.raw("DELETE FROM known_devices WHERE \(forgotten) RETURNING id").all().count
        try await sql.raw(
            """
            UPDATE login_challenges SET expires_at = \(bind: now)
            WHERE user_id = \(bind: user) AND used_at IS NULL AND expires_at > \(bind: now)
            """
        ).run()
        ended.verificationTokens = try await sql.raw(
            """
            UPDATE verification_tokens SET expires_at = \(bind: now)
            WHERE user_id = \(bind: user) AND redeemed_at IS NULL AND expires_at > \(bind: now)
            RETURNING token_hash
            """
        ).all().count
        // Values a thief's session time-locked must neither come due nor stay trusted after the owner's
        // recovery (issue 30 §1, issue 41 P3).
        try await PolicyValueLocks.discard(of: user, ended: endedSessions, kept: keptSession, on: sql)
        // A sign-in the phone approved but the web has not collected would be a way in after the reset,
        // and a verification waiting for the phone a proof (issue 43).
        try await PendingApprovals.end(of: user, now: now, on: database)
        if case .everything = scope {
            try await endPending(of: user, now: now, on: sql)
        }
        return ended
    }

    /// What only `.everything` ends: verifications in progress (and their challenges), pending passkey
    /// registrations and App Attest challenges, pending codes, and a TOTP enrolment not yet activated.
    private static func endPending(of user: UUID, now: Double, on sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            DELETE FROM signature_challenges WHERE verification_id IN (
              SELECT id FROM verifications WHERE user_id = \(bind: user) AND completed_at IS NULL)
            """
        ).run()
        try await sql.raw(
            """
            UPDATE verifications SET expires_at = \(bind: now)
            WHERE user_id = \(bind: user) AND completed_at IS NULL AND expires_at > \(bind: now)
            """
        ).run()
        try await sql.raw(
            """
            UPDATE passkey_challenges SET expires_at = \(bind: now)
            WHERE user_id = \(bind: user) AND used_at IS NULL AND expires_at > \(bind: now)
            """
        ).run()
        // An App Attest challenge binds nothing by itself, but none outlives the reset (issue 31 §2).
        try await sql.raw(
            """
            UPDATE app_attest_challenges SET expires_at = \(bind: now)
            WHERE user_id = \(bind: user) AND used_at IS NULL AND expires_at > \(bind: now)
            """
        ).run()
        // Link and removal codes are keyed "{user id}:{address}"; a reset code by the account's address.
        let linkKeys = user.uuidString.lowercased() + ":%"
        try await sql.raw(
            """
            UPDATE email_codes SET expires_at = \(bind: now)
            WHERE expires_at > \(bind: now) AND (
              (purpose IN (\(bind: EmailCode.Purpose.linkEmail.rawValue), \(bind: EmailCode.Purpose.removeEmail.rawValue))
                AND email LIKE \(bind: linkKeys))
              OR (purpose = \(bind: EmailCode.Purpose.passwordReset.rawValue)
                AND email IN (SELECT email FROM users WHERE id = \(bind: user) AND email IS NOT NULL)))
            """
        ).run()
        try await sql.raw(
            """
            UPDATE sms_codes SET expires_at = \(bind: now)
            WHERE expires_at > \(bind: now) AND phone IN (
              SELECT subject FROM identities WHERE user_id = \(bind: user) AND provider = \(bind: SignInProvider.phone.rawValue))
            """
        ).run()
        try await sql.raw(
            "DELETE FROM totp_credentials WHERE user_id = \(bind: user) AND active = \(bind: false)"
        ).run()
    }
}

extension LatchServices {
    /// Runs the security reset of `scope` for `user` and records the `security_reset` event (with what
    /// it ended as its `detail`, and `actor` when someone other than the owner's session caused it).
    @discardableResult
    func securityReset(
        _ scope: SecurityReset.Scope, user: UUID, session: UUID? = nil, ip: String?, actor: String? = nil,
        on database: any Database
    ) async throws -> SecurityReset.Ended {
        let now = clock.epochSeconds
        let ended = try await SecurityReset.run(scope, user: user, now: now, revocation: revocation, on: database)
        let reach: EventValue =
            switch scope {
            case .everything: .string("all")
            case .otherDevices: .string("others")
            }
        try await events.record(
            .securityReset, user: user, session: session, ip: ip, now: now, actor: actor, detail: ended.detail,
            facts: ["scope": reach], on: database)
        return ended
    }
}
