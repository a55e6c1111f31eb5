import FluentKit
import Foundation
import LatchCore

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

    private var credentials: TOTPCredentialStore { TOTPCredentialStore() }
    private var recoveryCodes: RecoveryCodeStore { RecoveryCodeStore() }

    /// A new pending secret for `user` (replacing a pending one); refuses when 2FA is active.
    /// One conditional upsert, so concurrent enrolments each get an answer (the last one's secret counts).
    func enroll(user: UUID, session: UUID? = nil, account: String, now: Double, on database: any Database) async throws
        -> TOTPEnrollment
    {
        let secret = TOTPSecret.generate()
        let written = try await credentials.writePending(
            sealed: try secrets.seal(Data(secret)), of: user, session: session, now: now, on: database)
        guard written else { throw Failure.alreadyActive }
        let encoded = Base32.encode(secret)
        return TOTPEnrollment(
            secret: encoded, otpauthURI: OTPAuthURI(secret: secret, issuer: Self.issuer, account: account).string)
    }

    /// The pending enrolment of `user` that can still be activated (younger than 10 minutes).
    func pendingEnrolment(user: UUID, now: Date, on database: any Database) async throws -> TOTPCredential? {
        guard let credential = try await credentials.find(of: user, on: database), !credential.active,
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
        let activated = try await credentials.activate(
            user, sealed: credential.sealedSecret, step: Int(step), on: database)
        guard activated else { throw Failure.notEnrolled }
        try await recoveryCodes.removeAll(of: user, on: database)
        let codes = RecoveryCode.generate(count: 10)
        try await recoveryCodes.insert(codes.map { recoveryHash($0, user: user) }, of: user, on: database)
        return codes
    }

    func isActive(user: UUID, on database: any Database) async throws -> Bool {
        try await credentials.find(of: user, on: database)?.active == true
    }

    /// Checks a 6-digit code (each time step once) or a recovery code (each once).
    /// Returns nil for a wrong code, else whether a recovery code was used.
    func check(_ code: String, user: UUID, now: Date, on database: any Database) async throws -> UsedCode? {
        guard let credential = try await credentials.find(of: user, on: database), credential.active else { return nil }
        let trimmed = code.filter { !$0.isWhitespace }
        if trimmed.count == 6, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            let totp = TOTP(secret: [UInt8](try secrets.open(credential.sealedSecret)))
            guard let step = totp.match(trimmed, at: now) else { return nil }
            // Accept each step once: only a step newer than the last used one moves the marker.
            return try await credentials.useStep(Int(step), of: user, on: database) ? .totp : nil
        }
        let hash = recoveryHash(code, user: user)
        if try await recoveryCodes.useOnce(hash, of: user, now: now.timeIntervalSince1970, on: database) {
            return .recoveryCode
        }
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
            let used = try await recoveryCodes.useOnce(key, of: user, now: now.timeIntervalSince1970, on: database)
            return used ? .recoveryCode : nil
        }
        return nil
    }

    /// Which kind of code matched.
    enum UsedCode { case totp, recoveryCode }

    func disable(user: UUID, on database: any Database) async throws {
        try await recoveryCodes.removeAll(of: user, on: database)
        try await credentials.remove(of: user, on: database)
    }

    private func recoveryHash(_ code: String, user: UUID) -> String {
        secrets.keyedHash(RecoveryCode.normalize(code), context: "recovery-code:\(user.uuidString.lowercased())")
    }
}
