import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The users' passkeys (issue 13): at most `Passkey.limit` per user, each credential once (to anyone),
/// and never an account's last way to sign in removed, also under concurrent requests.
struct PasskeyStore: Sendable {
    /// Inserts differ between the databases (see `insert`).
    let kind: DatabaseKind
    /// The accounts, for the last-way-in check.
    let accounts: AccountStore

    /// The user's passkeys, oldest first.
    func all(of user: UUID, on database: any Database) async throws -> [Passkey] {
        try await Passkey.query(on: database).filter(\.$userID == user).sort(\.$createdAt).all()
    }

    /// How many passkeys `user` has (a count needs no instance, as `DeviceCredentialStore.count`).
    static func count(of user: UUID, on database: any Database) async throws -> Int {
        try await Passkey.query(on: database).filter(\.$userID == user).count()
    }

    /// Writes the fields of a loaded passkey that a service changed (its name).
    func save(_ passkey: Passkey, on database: any Database) async throws {
        try await passkey.save(on: database)
    }

    /// Stores an assertion's counter, backup state and time of use on passkey `id`, unless the counter
    /// did not go up (when either is non-zero): one conditional UPDATE. False when it did not.
    func recordUse(
        of id: UUID, signCount counter: Int64, backedUp: Bool, now: Double, on database: any Database
    ) async throws -> Bool {
        let updated = try await database.sql.raw(
            """
            UPDATE passkeys SET sign_count = \(bind: counter), backed_up = \(bind: backedUp), last_used_at = \(bind: now)
            WHERE id = \(bind: id)
              AND ((sign_count = 0 AND \(bind: counter) = 0) OR sign_count < \(bind: counter))
            RETURNING id
            """
        ).all()
        return !updated.isEmpty
    }

    /// Passkey `id`, if it is `user`'s.
    func find(_ id: UUID, of user: UUID, on database: any Database) async throws -> Passkey? {
        guard let passkey = try await Passkey.find(id, on: database), passkey.userID == user else { return nil }
        return passkey
    }

    /// The passkey an assertion names by its `rawId` (base64url, compared in its canonical form).
    func find(rawID: String, on database: any Database) async throws -> Passkey? {
        guard let bytes = Base64URL.decode(rawID) else { return nil }
        return try await Passkey.query(on: database).filter(\.$credentialID == Base64URL.encode(bytes)).first()
    }

    /// Inserts `passkey` unless its credential id is registered (to anyone: 409 CONFLICT) or its user
    /// has `Passkey.limit` already (409 LIMIT_REACHED), also under concurrent registrations: on SQLite
    /// in one statement (its single write lock), on PostgreSQL after locking the user's row.
    func insert(_ passkey: Passkey, on database: any Database) async throws {
        let id = try passkey.requireID()
        let statement: SQLQueryString = """
            INSERT INTO passkeys (id, user_id, credential_id, public_key, name, transports, sign_count, backup_eligible,
              backed_up, attestation, aaguid, created_at, session_id)
            SELECT \(bind: id), \(bind: passkey.userID), \(bind: passkey.credentialID), \(bind: passkey.publicKey),
              \(bind: passkey.name), \(bind: passkey.transports), \(bind: passkey.signCount), \(bind: passkey.backupEligible),
              \(bind: passkey.backedUp), \(bind: passkey.attestation), \(bind: passkey.aaguid), \(bind: passkey.createdAt),
              \(bind: passkey.sessionID)
            WHERE (SELECT COUNT(*) FROM passkeys WHERE user_id = \(bind: passkey.userID)) < \(bind: Passkey.limit)
              \(SecurityReset.whileSessionLive(passkey.sessionID))
            ON CONFLICT (credential_id) DO NOTHING
            RETURNING id
            """
        let inserted: [any SQLRow]
        switch kind {
        case .sqlite:
            inserted = try await database.sql.raw(statement).all()
        case .postgresql:
            inserted = try await database.tracedTransaction { database in
                try await database.lockUserRow(passkey.userID)
                return try await database.sql.raw(statement).all()
            }
        }
        guard inserted.isEmpty else { return }
        // Lost: say why.
        try await SecurityReset.requireLiveSession(passkey.sessionID, on: database)
        if try await Passkey.query(on: database).filter(\.$credentialID == passkey.credentialID).first() != nil {
            throw LatchError(.conflict, field: "credential", reasons: ["credential_exists"])
        }
        throw LatchError(.limitReached)
    }

    /// Removes `passkey` unless it is its account's last way to sign in (`User.waysToSignIn`), checked
    /// under the user's row lock: two removals or unlinks at once cannot remove the last two ways
    /// together. False when it was the last.
    func remove(_ passkey: Passkey, on database: any Database) async throws -> Bool {
        let id = try passkey.requireID()
        return try await database.tracedTransaction { database in
            try await database.lockUserRow(passkey.userID)
            guard try await User.waysToSignIn(of: passkey.userID, accounts: accounts, on: database) > 1 else {
                return false
            }
            try await database.sql.raw("DELETE FROM passkeys WHERE id = \(bind: id)").run()
            return true
        }
    }
}

extension LatchServices {
    /// The passkeys of this instance's database.
    var passkeys: PasskeyStore { PasskeyStore(kind: databaseKind, accounts: accounts) }
}
