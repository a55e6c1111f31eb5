import FluentKit
import Foundation
import LatchCore
import SQLKit

/// Authenticator-app 2FA (D1): enrol, activate with a first code, check codes once each (a code of
/// an already used time step is refused), recovery codes as single-use substitutes, disable.
struct TOTPService: Sendable {
    static let issuer = "Latch"
    /// A pending enrolment must be activated within 10 minutes (issue 10).
    static let enrolmentLifetime: Double = 600
    let secrets: SecretBox
    /// Checks imported recovery codes (issue 45 §3) on the hashing pool.
    var passwords: PasswordHasher? = nil

    enum Failure: Error { case alreadyActive, notEnrolled, wrongCode }

    /// A new pending secret for `user` (replacing a pending one); refuses when 2FA is active.
    /// One conditional upsert, so concurrent enrolments each get an answer (the last one's secret counts).
    func enroll(user: UUID, session: UUID? = nil, account: String, now: Double, on database: any Database) async throws
        -> TOTPEnrollment
    {
        let secret = TOTPSecret.generate()
        let rows = try await database.sql.raw(
            """
            INSERT INTO totp_credentials (user_id, sealed_secret, active, last_used_step, created_at, session_id)
            VALUES (\(bind: user), \(bind: try secrets.seal(Data(secret))), \(bind: false), -1, \(bind: now), \(bind: session))
            ON CONFLICT (user_id) DO UPDATE SET
              sealed_secret = excluded.sealed_secret, last_used_step = -1, created_at = excluded.created_at,
              session_id = excluded.session_id
            WHERE totp_credentials.active = \(bind: false)
            RETURNING user_id
            """
        ).all()
        guard !rows.isEmpty else { throw Failure.alreadyActive }
        let encoded = Base32.encode(secret)
        return TOTPEnrollment(
            secret: encoded, otpauthURI: OTPAuthURI(secret: secret, issuer: Self.issuer, account: account).string)
    }

    /// The pending enrolment of `user` that can still be activated (younger than 10 minutes).
    func pendingEnrolment(user: UUID, now: Date, on database: any Database) async throws -> TOTPCredential? {
        guard let credential = try await TOTPCredential.find(user, on: database), !credential.active,
            credential.createdAt + Self.enrolmentLifetime > now.timeIntervalSince1970
        else { return nil }
        return credential
    }

    /// Activates the pending secret with a first code; returns ten recovery codes (shown once).
    /// The caller counts the guess (`GuessBudget.codes`); activation itself happens once.
    func activate(user: UUID, code: String, now: Date, on database: any Database) async throws -> [String] {
        guard let credential = try await pendingEnrolment(user: user, now: now, on: database) else {
            throw Failure.notEnrolled
        }
        let totp = TOTP(secret: [UInt8](try secrets.open(credential.sealedSecret)))
        guard let step = totp.match(code, at: now) else { throw Failure.wrongCode }
        // Activated once: of two concurrent activations with right codes only one wins.
        let activated = try await database.sql.raw(
            """
            UPDATE totp_credentials SET active = \(bind: true), last_used_step = \(bind: Int(step))
            WHERE user_id = \(bind: user) AND active = \(bind: false) AND sealed_secret = \(bind: credential.sealedSecret)
            RETURNING user_id
            """
        ).all()
        guard !activated.isEmpty else { throw Failure.notEnrolled }
        try await RecoveryCodeRecord.query(on: database).filter(\.$userID == user).delete()
        let codes = RecoveryCode.generate(count: 10)
        for code in codes {
            let record = RecoveryCodeRecord()
            record.id = recoveryHash(code, user: user)
            record.userID = user
            try await record.create(on: database)
        }
        return codes
    }

    func isActive(user: UUID, on database: any Database) async throws -> Bool {
        try await TOTPCredential.find(user, on: database)?.active == true
    }

    /// Checks a 6-digit code (each time step once) or a recovery code (each once).
    /// Returns nil for a wrong code, else whether a recovery code was used.
    func check(_ code: String, user: UUID, now: Date, on database: any Database) async throws -> UsedCode? {
        guard let credential = try await TOTPCredential.find(user, on: database), credential.active else { return nil }
        let trimmed = code.filter { !$0.isWhitespace }
        if trimmed.count == 6, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            let totp = TOTP(secret: [UInt8](try secrets.open(credential.sealedSecret)))
            guard let step = totp.match(trimmed, at: now) else { return nil }
            // Accept each step once: only a step newer than the last used one moves the marker.
            let rows = try await database.sql.raw(
                """
                UPDATE totp_credentials SET last_used_step = \(bind: Int(step))
                WHERE user_id = \(bind: user) AND active = \(bind: true) AND last_used_step < \(bind: Int(step))
                RETURNING user_id
                """
            ).all()
            return rows.isEmpty ? nil : .totp
        }
        let used = try await database.sql.useOnce(
            "recovery_codes", mark: "used_at",
            where: "code_hash = \(bind: recoveryHash(code, user: user)) AND user_id = \(bind: user)",
            now: now.timeIntervalSince1970, live: false, returning: ["code_hash"])
        if used != nil { return .recoveryCode }
        return try await useImportedRecoveryCode(code, user: user, now: now, on: database)
    }

    /// An imported recovery code (issue 45 §3): its hash was made by another system, so it is found by
    /// checking the user's unused imported codes (at most 16) on the hashing pool, then used once.
    private func useImportedRecoveryCode(_ code: String, user: UUID, now: Date, on database: any Database)
        async throws -> UsedCode?
    {
        guard let passwords else { return nil }
        let keys = try await UserImportStore.unusedImportedRecoveryCodes(of: user, on: database)
        guard !keys.isEmpty else { return nil }
        // The other system hashed the code as it showed it, or in latchd's normal form (no spaces, lower case).
        let trimmed = code.trimmingCharacters(in: .whitespacesAndNewlines)
        let candidates = Array(Set([trimmed, RecoveryCode.normalize(code)]))
        for key in keys {
            guard let hash = ImportedPasswordHash.inRecoveryCodeKey(key) else { continue }
            var matched = false
            for candidate in candidates where !matched {
                matched = try await passwords.verifyImported(candidate, against: hash, padded: false)
            }
            guard matched else { continue }
            let used = try await database.sql.useOnce(
                "recovery_codes", mark: "used_at", where: "code_hash = \(bind: key) AND user_id = \(bind: user)",
                now: now.timeIntervalSince1970, live: false, returning: ["code_hash"])
            return used == nil ? nil : .recoveryCode
        }
        return nil
    }

    /// Which kind of code matched.
    enum UsedCode { case totp, recoveryCode }

    func disable(user: UUID, on database: any Database) async throws {
        try await RecoveryCodeRecord.query(on: database).filter(\.$userID == user).delete()
        try await TOTPCredential.query(on: database).filter(\.$id == user).delete()
    }

    private func recoveryHash(_ code: String, user: UUID) -> String {
        secrets.keyedHash(RecoveryCode.normalize(code), context: "recovery-code:\(user.uuidString.lowercased())")
    }
}
