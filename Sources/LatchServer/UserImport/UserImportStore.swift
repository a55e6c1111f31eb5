import FluentKit
import Foundation
import LatchCore
import SQLKit

/// Every statement of a user import (issue 45 §1): which user a line is, whose its email, phone and
/// identities already are, and the rows a new or updated user gets. `user_imports` remembers each imported
/// user's `external_id` and the digest of its last line, so a second run of the same file changes nothing.
struct UserImportStore: Sendable {
    static let schema = "user_imports"
    let secrets: SecretBox
    /// The owner of `users`: an updated user's row is written there.
    let accounts: AccountStore

    /// What the store already knows of a line's user.
    enum Match: Sendable, Equatable {
        /// Nobody: the line is a new user.
        case none
        /// A user this import made before, with the digest of the line it was made or last updated from.
        case imported(UUID, digest: String)
    }

    /// The imported user the line is: by `external_id`, then by email among imported users without one.
    func match(_ record: UserImportRecord, on database: any Database) async throws -> Match {
        if let externalID = record.externalID,
            let row = try await database.sql.raw(
                "SELECT user_id, digest FROM user_imports WHERE external_id = \(bind: externalID)"
            ).first()
        {
            return .imported(
                try row.decode(column: "user_id", as: UUID.self),
                digest: try row.decode(column: "digest", as: String.self))
        }
        guard let email = record.email?.value else { return .none }
        guard
            let row = try await database.sql.raw(
                """
                SELECT i.user_id, i.digest, i.external_id FROM user_imports i JOIN users u ON u.id = i.user_id
                WHERE u.email = \(bind: email)
                """
            ).first()
        else { return .none }
        // The same address under another external id is another person's line: a conflict, not a match.
        if let theirs = try row.decode(column: "external_id", as: String?.self), theirs != record.externalID {
            throw UserImportRefusal.conflict("email")
        }
        return .imported(
            try row.decode(column: "user_id", as: UUID.self), digest: try row.decode(column: "digest", as: String.self))
    }

    /// The first of the line's email, phone and identities that belongs to a user other than `user`.
    func conflict(of record: UserImportRecord, user: UUID?, on database: any Database) async throws
        -> UserImportRefusal?
    {
        if let email = record.email?.value,
            let owner = try await accounts.id(ofEmail: email, on: database), owner != user
        {
            return .conflict("email")
        }
        for key in record.identityKeys {
            if let owner = try await database.sql.raw(
                "SELECT user_id FROM identities WHERE provider = \(bind: key.provider.rawValue) AND subject = \(bind: key.subject)"
            ).first(), try owner.decode(column: "user_id", as: UUID.self) != user {
                return .conflict(key.provider == .phone ? "phone" : "identity")
            }
        }
        return nil
    }

    /// Creates the user of `record` with every row it brings; returns its id.
    func insert(_ record: UserImportRecord, digest: String, now: Double, on database: any Database) async throws -> UUID
    {
        let user = NewUser(id: UUID(), record: record, digest: digest)
        try await insertTogether([user], now: now, on: database)
        return user.id
    }

    /// Brings an imported user up to a changed line: the profile is the line's; a password or fund password
    /// replaces only one the import wrote and the user has not replaced since; factors, identities and known
    /// devices the user lacks are added; `disabled` and `frozen` are set, never lifted.
    func update(_ user: UUID, to record: UserImportRecord, digest: String, now: Double, on database: any Database)
        async throws
    {
        try await accounts.updateImported(user, to: record, now: now, on: database)
        try await addRows(of: record, to: user, now: now, on: database)
        try await database.sql.raw(
            """
            UPDATE user_imports SET digest = \(bind: digest), external_id = \(bind: record.externalID), imported_at = \(bind: now)
            WHERE user_id = \(bind: user)
            """
        ).run()
    }

    /// The rows beside `users`, each only where the user has none of its kind (or not this one) yet.
    private func addRows(of record: UserImportRecord, to user: UUID, now: Double, on database: any Database)
        async throws
    {
        for identity in record.identityKeys {
            try await database.sql.raw(
                """
                INSERT INTO identities (id, user_id, provider, subject, email, created_at)
                SELECT \(bind: UUID()), \(bind: user), \(bind: identity.provider.rawValue), \(bind: identity.subject), NULL, \(bind: now)
                WHERE NOT EXISTS (SELECT 1 FROM identities WHERE user_id = \(bind: user) AND provider = \(bind: identity.provider.rawValue))
                """
            ).run()
        }
        for device in record.knownDevices {
            let stored = KnownDevice.storedID(of: device.id, user: user, secrets: secrets)
            try await database.sql.raw(
                """
                INSERT INTO known_devices (id, user_id, device_id, first_seen_at)
                SELECT \(bind: UUID()), \(bind: user), \(bind: stored),
                  \(bind: device.lastSeenAt?.epochSeconds ?? now)
                WHERE NOT EXISTS (SELECT 1 FROM known_devices WHERE user_id = \(bind: user)
                  AND device_id = \(bind: stored))
                """
            ).run()
        }
        if let fund = record.fundPassword {
            try await database.sql.raw(
                """
                INSERT INTO fund_passwords (user_id, password_hash, updated_at)
                SELECT \(bind: user), \(bind: Self.column(fund)), \(bind: now)
                WHERE NOT EXISTS (SELECT 1 FROM fund_passwords WHERE user_id = \(bind: user))
                """
            ).run()
        }
        if let secret = record.totpSecret {
            let added = try await database.sql.raw(
                """
                INSERT INTO totp_credentials (user_id, sealed_secret, active, last_used_step, created_at)
                SELECT \(bind: user), \(bind: try secrets.seal(Data(secret))), \(bind: true), 0, \(bind: now)
                WHERE NOT EXISTS (SELECT 1 FROM totp_credentials WHERE user_id = \(bind: user))
                RETURNING user_id
                """
            ).all()
            guard !added.isEmpty else { return }
            for code in record.recoveryCodes {
                try await database.sql.raw(
                    """
                    INSERT INTO recovery_codes (code_hash, user_id, used_at)
                    VALUES (\(bind: ImportedPasswordHash.recoveryCodeKey(code)), \(bind: user), NULL)
                    """
                ).run()
            }
        }
    }

    /// What `users.password_hash` (and `fund_passwords.password_hash`) holds for a stored password.
    static func column(_ password: UserImportRecord.StoredPassword) -> String {
        switch password {
        case .latch(let hash): hash
        case .imported(let hash): ImportedPasswordHash.columnPrefix + hash.stored
        }
    }
}

extension UserImportStore {
    /// Replaces an imported fund-password hash with latchd's own (issue 45 §3), in one statement, only if
    /// it is still the one checked (the password's own: `AccountStore.replacePasswordHash`).
    static func replaceImportedFundPassword(
        of user: UUID, imported: String, with own: String, on database: any Database
    )
        async throws
    {
        try await database.sql.raw(
            """
            UPDATE fund_passwords SET password_hash = \(bind: own)
            WHERE user_id = \(bind: user) AND password_hash = \(bind: imported)
            """
        ).run()
    }
}

extension UserImportStore {
    /// The keys (`recovery_codes.code_hash`) of `user`'s unused imported recovery codes (issue 45 §3).
    static func unusedImportedRecoveryCodes(of user: UUID, on database: any Database) async throws -> [String] {
        try await database.sql.raw(
            """
            SELECT code_hash FROM recovery_codes
            WHERE user_id = \(bind: user) AND used_at IS NULL AND code_hash LIKE \(bind: ImportedPasswordHash.columnPrefix + "%")
            """
        ).all().map { try $0.decode(column: "code_hash", as: String.self) }
    }
}
