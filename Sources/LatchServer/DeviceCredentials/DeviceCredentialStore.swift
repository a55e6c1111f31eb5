import FluentKit
import Foundation
import LatchCore
import SQLKit

/// Bound device keys (B5, B6): at most `limit` per user, each public key once per user.
struct DeviceCredentialStore: Sendable {
    static let limit = 10

    /// Binds differ between the databases (see `insert`).
    let kind: DatabaseKind

    /// The user's keys, oldest first.
    func all(of user: UUID, on database: any Database) async throws -> [DeviceCredential] {
        try await DeviceCredential.query(on: database).filter(\.$userID == user).sort(\.$createdAt).all()
    }

    /// How many keys `user` has bound (a count is the same on either database, so no instance is needed).
    static func count(of user: UUID, on database: any Database) async throws -> Int {
        try await DeviceCredential.query(on: database).filter(\.$userID == user).count()
    }

    /// What a verification offers of a bound key: its id, whether App Attest vouches for it, and its
    /// provenance (issue 28 §2).
    struct Offered: Sendable, Equatable {
        let id: UUID
        let attested: Bool
        let provenance: FactorSeasoning.Provenance
    }

    /// The user's keys as a verification offers them, oldest first: one direct statement of four columns
    /// (issue 29 §2's hot read; the whole model with its App Attest fields is not needed to offer a key).
    func offered(of user: UUID, on database: any Database) async throws -> [Offered] {
        try await database.sql.raw(
            """
            SELECT id, created_at, session_id, app_attest_public_key IS NOT NULL AS attested FROM device_credentials
            WHERE user_id = \(bind: user) ORDER BY created_at
            """
        ).all().map { row in
            Offered(
                id: try row.decode(column: "id", as: UUID.self),
                attested: try row.decode(column: "attested", as: Bool.self),
                provenance: .init(
                    addedAt: try row.decode(column: "created_at", as: Double.self),
                    session: try row.decode(column: "session_id", as: UUID?.self)))
        }
    }

    /// Key `id`, if it is `user`'s (any user's when `user` is nil).
    func find(_ id: UUID, of user: UUID? = nil, on database: any Database) async throws -> DeviceCredential? {
        guard let credential = try await DeviceCredential.find(id, on: database) else { return nil }
        if let user, credential.userID != user { return nil }
        return credential
    }

    /// Refuses a key the user already bound (409 CONFLICT) or an eleventh key (409 LIMIT_REACHED).
    func checkRoom(for publicKey: String, user: UUID, on database: any Database) async throws {
        let existing = try await DeviceCredential.query(on: database).filter(\.$userID == user).all()
        guard existing.count < Self.limit else { throw LatchError(.limitReached) }
        guard !existing.contains(where: { $0.publicKey == publicKey }) else { throw LatchError(.conflict) }
    }

    /// Inserts `credential` unless its user has `limit` keys or this key already, also under
    /// concurrent binds: on SQLite in one statement (statements run under its single write lock), on
    /// PostgreSQL in a transaction that first locks the user's row, so concurrent binds queue.
    func insert(_ credential: DeviceCredential, on database: any Database) async throws {
        switch kind {
        case .postgresql:
            try await database.tracedTransaction { database in
                try await database.lockUserRow(credential.userID)
                try await SecurityReset.requireLiveSession(credential.sessionID, on: database)
                try await checkRoom(for: credential.publicKey, user: credential.userID, on: database)
                try await credential.create(on: database)
            }
        case .sqlite:
            let inserted = try await database.sql.raw(
                """
                INSERT INTO device_credentials (id, user_id, public_key, device_name, biometry, created_at, session_id, protection,
                  app_attest_key_id, app_attest_public_key, app_attest_counter, app_attest_environment, app_attest_app_id,
                  app_attest_receipt, app_bundle_id, app_version)
                SELECT \(bind: credential.requireID()), \(bind: credential.userID), \(bind: credential.publicKey),
                  \(bind: credential.deviceName), \(bind: credential.biometry), \(bind: credential.createdAt),
                  \(bind: credential.sessionID), \(bind: credential.protection),
                  \(bind: credential.appAttestKeyID), \(bind: credential.appAttestPublicKey),
                  \(bind: credential.appAttestCounter), \(bind: credential.appAttestEnvironment),
                  \(bind: credential.appAttestAppID), \(bind: credential.appAttestReceipt),
                  \(bind: credential.appBundleID), \(bind: credential.appVersion)
                WHERE (SELECT COUNT(*) FROM device_credentials WHERE user_id = \(bind: credential.userID)) < \(bind: Self.limit)
                  AND NOT EXISTS (SELECT 1 FROM device_credentials
                                  WHERE user_id = \(bind: credential.userID) AND public_key = \(bind: credential.publicKey))
                  \(SecurityReset.whileSessionLive(credential.sessionID))
                RETURNING id
                """
            ).all()
            // Lost a race: say why, as the check before would have.
            if inserted.isEmpty {
                try await SecurityReset.requireLiveSession(credential.sessionID, on: database)
                try await checkRoom(for: credential.publicKey, user: credential.userID, on: database)
            }
            if inserted.isEmpty { throw LatchError(.limitReached) }
        }
    }

    /// Records a use of the key at `now`.
    func markUsed(_ credential: DeviceCredential, now: Double, on database: any Database) async throws {
        try await database.sql.raw(
            "UPDATE device_credentials SET last_used_at = \(bind: now) WHERE id = \(bind: credential.requireID())"
        ).run()
        credential.lastUsedAt = now
    }

    /// Removes the key and its pending challenges.
    func remove(_ credential: DeviceCredential, on database: any Database) async throws {
        try await database.sql.raw(
            "DELETE FROM signature_challenges WHERE credential_id = \(bind: credential.requireID())"
        ).run()
        try await credential.delete(on: database)
    }
}

extension LatchServices {
    /// The bound device keys of this instance's database.
    var deviceCredentials: DeviceCredentialStore { DeviceCredentialStore(kind: databaseKind) }
}
