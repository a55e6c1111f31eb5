import FluentKit
import Foundation
import LatchCore
import Logging
import SQLKit

/// Deletes an account (issue 12 §1), for `DELETE /v1/me` and for operators (the admin API and
/// `latchd admin`), without HTTP:
///
///     let outcome = try await AccountDeletion(application: app).delete(userID: id, on: app.db)
///
/// In one transaction it erases the person's data — email, phone, names, identities, the password
/// and fund-password hashes, TOTP and recovery codes, device keys and their challenges, known devices,
/// passkeys, pending codes and verifications, the guess budgets, lockout counters and send caps keyed by the
/// address, number or account — and ends every session: sessions are revoked (on PostgreSQL the revocation
/// trigger tells every latchd at once) and stripped of their device and address, their refresh
/// tokens deleted. The session rows themselves stay, without personal data, so a refresh racing the
/// deletion finds its session revoked rather than missing. The user row stays as a tombstone (id,
/// `created_at`, `deleted_at`) so security events still point somewhere; sessions can no longer be
/// started for it (`RefreshTokenRotation.start`). The address and number are free to register again.
///
/// After the commit it revokes the Apple refresh token (when an Apple identity held one) and mails
/// the owner a last message. Neither can undo the deletion: a failure is logged and the answer says
/// `apple_revocation: "not_possible"`.
public struct AccountDeletion: Sendable {
    let latch: LatchServices
    let appleTokens: AppleTokenEndpoint?
    let logger: Logger

    init(latch: LatchServices, appleTokens: AppleTokenEndpoint?, logger: Logger) {
        self.latch = latch
        self.appleTokens = appleTokens
        self.logger = logger
    }

    /// Deletes the account `userID`; `language` chooses the last mail's. Throws `LatchError.notFound`
    /// when there is no such live account. (No address is kept: the `account_deleted` event has none.)
    public func delete(
        userID: UUID, language: LatchLanguage = .en, on database: any Database
    ) async throws -> AppleRevocation {
        let erased = try await database.tracedTransaction { try await erase(userID, on: $0) }
        return await finish(erased, language: language, on: database)
    }

    /// The erasure, in the caller's transaction (`finish` once it committed). Throws
    /// `LatchError.notFound` when there is no such live account.
    func erase(_ userID: UUID, on database: any Database) async throws -> Erased {
        guard let erased = try await eraseIfLive(userID, now: latch.clock.epochSeconds, on: database) else {
            throw LatchError.notFound
        }
        return erased
    }

    /// What follows a committed erasure: this instance forgets the sessions and the profile at once,
    /// Apple's refresh token is revoked (queued for a retry on `database` when Apple could not be
    /// asked) and the owner gets a last mail. Neither can undo the deletion.
    func finish(_ erased: Erased, language: LatchLanguage, on database: any Database) async -> AppleRevocation {
        let userID = erased.userID
        latch.sessionStatus.markRevoked(erased.sessionIDs)
        latch.accounts.profiles.forget(userID)

        let revocation: AppleRevocation
        if let apple = erased.apple {
            revocation = await AppleRefreshTokens.revoke(
                sealed: apple.sealedRefreshToken, clientID: apple.clientID, endpoint: appleTokens,
                secrets: latch.secrets, now: erased.at, retryingOn: database, logger: logger)
            if revocation == .notPossible {
                logger.notice(
                    "deleted account \(userID.uuidString.lowercased()): its Apple authorization was not revoked (no Apple refresh token held, or Apple failed: retried later when Apple was unreachable)"
                )
            }
        } else {
            revocation = .notLinked
        }
        if let email = erased.email {
            do {
                try await latch.send(MailTemplates.accountDeleted(language: language), to: email, lane: .notice)
            } catch {
                logger.warning("deleted account \(userID.uuidString.lowercased()): its last mail could not be queued")
            }
        }
        return revocation
    }

    /// What the erasure found before erasing it: where to send the last mail, and the Apple token to revoke.
    struct Erased: Sendable {
        let userID: UUID
        /// When the account was deleted.
        let at: Double
        let email: String?
        let apple: AppleAuthorization?
        let sessionIDs: [UUID]
    }

    struct AppleAuthorization: Sendable {
        let sealedRefreshToken: String?
        let clientID: String?
    }

    /// The erasure, in the caller's transaction; nil when the account does not exist or is already deleted.
    private func eraseIfLive(_ userID: UUID, now: Double, on database: any Database) async throws -> Erased? {
        let sql = database.sql
        // Marking the row first locks it (PostgreSQL) and makes the deletion happen once; the sign-ins
        // in flight now wait for it and then find the account deleted (`RefreshTokenRotation.start`).
        guard let marked = try await latch.accounts.markDeleted(userID, now: now, on: database) else { return nil }
        let email = marked
        let identities = try await sql.raw(
            """
            SELECT provider, subject, apple_refresh_token, apple_client_id FROM identities WHERE user_id = \(bind: userID)
            """
        ).all()
        var phone: String?
        var apple: AppleAuthorization?
        for row in identities {
            switch SignInProvider(rawValue: try row.decode(column: "provider", as: String.self)) {
            case .phone: phone = try row.decode(column: "subject", as: String.self)
            case .apple:
                apple = AppleAuthorization(
                    sealedRefreshToken: try row.decode(column: "apple_refresh_token", as: String?.self),
                    clientID: try row.decode(column: "apple_client_id", as: String?.self))
            case .wechat, .email, nil: break
            }
        }

        try await latch.accounts.scrub(userID, on: database)
        let sessions = try await sql.raw(
            """
            UPDATE sessions SET revoked_at = COALESCE(revoked_at, \(bind: now)), sealed_secret = '', device_id = NULL,
              device_name = NULL, device_model = NULL, platform = NULL, ip = NULL
            WHERE user_id = \(bind: userID)
            RETURNING id
            """
        ).all()
        try await sql.raw(
            """
            DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = \(bind: userID))
            """
        ).run()
        try await sql.raw(
            """
            DELETE FROM signature_challenges
            WHERE credential_id IN (SELECT id FROM device_credentials WHERE user_id = \(bind: userID))
              OR verification_id IN (SELECT id FROM verifications WHERE user_id = \(bind: userID))
            """
        ).run()
        for table in Self.tablesKeyedByUser {
            try await sql.raw("DELETE FROM \(ident: table) WHERE user_id = \(bind: userID)").run()
        }

        let user = userID.uuidString.lowercased()
        // Pending emailed codes: to the address (registration, reset), and email links of this account.
        try await sql.raw(
            """
            DELETE FROM email_codes WHERE email = \(bind: email ?? "") OR email LIKE \(bind: "\(user):%")
            """
        ).run()
        if let phone { try await sql.raw("DELETE FROM sms_codes WHERE phone = \(bind: phone)").run() }
        // Guess budgets and lockout counters, and the daily caps on codes sent (`send:…`): their keys
        // hold the address, number or account.
        // The one list the operator's unlock reads too (`GuardKey`, issue 28 §1).
        let keys = GuardKey.ofAccount(userID, email: email, phone: phone).map(\.rawValue)
        let patterns = GuardKey.patterns(ofAccount: userID)
        try await sql.raw(
            """
            DELETE FROM guess_budgets WHERE key IN (\(binds: keys))
              OR key LIKE \(bind: patterns[0]) OR key LIKE \(bind: patterns[1]) OR key LIKE \(bind: patterns[2])
            """
        ).run()
        try await sql.raw("DELETE FROM login_throttles WHERE key IN (\(binds: keys))").run()

        // Nothing left names the person (issue 20 §9): the account's events lose their addresses (the
        // deletion's own event is recorded without one), and mail and SMS still queued for the address or
        // number are dropped (jobs a carrier is sending at this moment go out). Operators' audit rows
        // keep the operator's address.
        try await sql.raw("UPDATE security_events SET ip = NULL WHERE user_id = \(bind: userID)").run()
        let recipients = [email, phone].compactMap { $0 }.map {
            DeliveryJobStore.recipientKey(of: $0, secrets: latch.secrets)
        }
        if !recipients.isEmpty {
            try await sql.raw(
                """
                DELETE FROM delivery_jobs WHERE recipient_key IN (\(binds: recipients))
                  AND (claimed_until IS NULL OR claimed_until < \(bind: now))
                """
            ).run()
        }
        try await latch.events.record(.accountDeleted, user: userID, ip: nil, now: now, on: database)
        return Erased(
            userID: userID, at: now, email: email, apple: apple,
            sessionIDs: try sessions.map { try $0.decode(column: "id", as: UUID.self) })
    }

    /// The tables holding a user id that deletion keeps rows of, and why (issue 28 §1: the closed world
    /// `SecurityChangeDeclarationTests` holds deletion to).
    static let keptTables: [String: String] = [
        "users": "the tombstone: the account's row with every personal field erased and deleted_at set",
        "sessions": "revoked tombstones with their device data and secret erased, so a replayed token is known",
        "security_events": "the account's history, its IP addresses erased (issue 20 §9)",
        "outbound_events":
            "what the app's backend hears (issue 42), account.deleted among them: no payload names the person (no address, IP or name)",
        "admin_audit_log": "the operators' audit trail, which names what they did to whom"
    ]

    /// Every table whose rows belong to one user and hold that user's data or secrets.
    static let tablesKeyedByUser = [
        DeviceCredential.schema, KnownDevice.schema, LoginChallenge.schema, TOTPCredential.schema,
        RecoveryCodeRecord.schema,
        FundPassword.schema, VerificationToken.schema, VerificationRecord.schema, Identity.schema, Passkey.schema,
        PasskeyChallenge.schema, FreezeTokens.schema, SecurityHolds.schema, NoticeDigests.table,
        PolicyValueLocks.schema, AppAttestStore.challengesTable, ApprovalStore.schema, PushApprovalStore.schema,
        UserImportStore.schema
    ]
}
