import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The statements of lines written together (`UserImportBatchPlan`): what the database holds of a batch's
/// keys, in three queries, and every row of a batch's new users in one multi-row statement a table.
extension UserImportStore {
    /// Which of `records`' external ids, emails and identities (phones among them) the database holds.
    func known(of records: [UserImportRecord], on database: any Database) async throws -> UserImportBatchPlan.Known {
        var known = UserImportBatchPlan.Known()
        let externalIDs = records.compactMap(\.externalID)
        if !externalIDs.isEmpty {
            known.externalIDs = Set(
                try await database.sql.raw(
                    "SELECT external_id FROM user_imports WHERE external_id IN (\(binds: externalIDs))"
                ).all().map { try $0.decode(column: "external_id", as: String.self) })
        }
        let emails = records.compactMap(\.email?.value)
        if !emails.isEmpty {
            known.emails = Set(
                try await database.sql.raw("SELECT email FROM users WHERE email IN (\(binds: emails))").all().map {
                    try $0.decode(column: "email", as: String.self)
                })
        }
        let subjects = records.flatMap { $0.identityKeys.map(\.subject) }
        if !subjects.isEmpty {
            for row in try await database.sql.raw(
                "SELECT provider, subject FROM identities WHERE subject IN (\(binds: subjects))"
            ).all() {
                if let provider = SignInProvider(rawValue: try row.decode(column: "provider", as: String.self)) {
                    known.identities.insert(
                        .init(provider: provider, subject: try row.decode(column: "subject", as: String.self)))
                }
            }
        }
        return known
    }

    /// A new user of a batch: its id, line and the line's digest.
    struct NewUser: Sendable {
        let id: UUID
        let record: UserImportRecord
        let digest: String
    }

    /// Creates every user of `users` with the rows its line brings: a statement a table (`insert` is one user).
    func insertTogether(_ users: [NewUser], now: Double, on database: any Database) async throws {
        guard !users.isEmpty else { return }
        try await insertRows(
            into: "users",
            columns: [
                "id", "email", "email_verified", "password_hash", "nickname", "created_at", "disabled_at", "frozen_at",
                "frozen_by", "password_change_required"
            ],
            users.map { user -> [any Encodable & Sendable] in
                let record = user.record
                return [
                    user.id, record.email?.value, record.emailVerified, record.password.map(Self.column),
                    record.nickname, record.createdAt ?? now, record.disabled ? now : nil as Double?,
                    record.frozen ? now : nil as Double?, record.frozen ? "operator" : nil as String?,
                    record.passwordChangeRequired
                ]
            }, on: database)
        try await insertRows(
            into: "identities", columns: ["id", "user_id", "provider", "subject", "email", "created_at"],
            users.flatMap { user in
                user.record.identityKeys.map { identity -> [any Encodable & Sendable] in
                    [UUID(), user.id, identity.provider.rawValue, identity.subject, nil as String?, now]
                }
            }, on: database)
        // A line's device ids are distinct (`UserImportRecord.validate`).
        try await insertRows(
            into: "known_devices", columns: ["id", "user_id", "device_id", "first_seen_at"],
            users.flatMap { user in
                user.record.knownDevices.map { device -> [any Encodable & Sendable] in
                    [
                        UUID(), user.id, KnownDevice.storedID(of: device.id, user: user.id, secrets: secrets),
                        device.lastSeenAt?.epochSeconds ?? now
                    ]
                }
            }, on: database)
        try await insertRows(
            into: "fund_passwords", columns: ["user_id", "password_hash", "updated_at"],
            users.compactMap { user -> [any Encodable & Sendable]? in
                user.record.fundPassword.map { [user.id, Self.column($0), now] }
            },
            on: database)
        try await insertRows(
            into: "totp_credentials", columns: ["user_id", "sealed_secret", "active", "last_used_step", "created_at"],
            try users.compactMap { user -> [any Encodable & Sendable]? in
                try user.record.totpSecret.map { [user.id, try secrets.seal(Data($0)), true, 0, now] }
            }, on: database)
        try await insertRows(
            into: "recovery_codes", columns: ["code_hash", "user_id", "used_at"],
            users.filter { $0.record.totpSecret != nil }.flatMap { user in
                user.record.recoveryCodes.map { code -> [any Encodable & Sendable] in
                    [ImportedPasswordHash.recoveryCodeKey(code), user.id, nil as Double?]
                }
            }, on: database)
        try await insertRows(
            into: "user_imports", columns: ["user_id", "external_id", "digest", "imported_at"],
            users.map { user -> [any Encodable & Sendable] in [user.id, user.record.externalID, user.digest, now] },
            on: database)
    }

    /// At most this many values bound in one statement (SQLite allows 32,766, PostgreSQL 65,535).
    static let maximumBinds = 10_000

    /// `INSERT INTO table (columns) VALUES (…), (…)` for `rows`, in as few statements as the bind limit allows.
    private func insertRows(
        into table: String, columns: [String], _ rows: [[any Encodable & Sendable]], on database: any Database
    ) async throws {
        let perStatement = max(1, Self.maximumBinds / columns.count)
        for start in stride(from: 0, to: rows.count, by: perStatement) {
            let values: [SQLQueryString] = rows[start..<min(rows.count, start + perStatement)].map { "(\(binds: $0))" }
            try await database.sql.raw(
                "INSERT INTO \(ident: table) (\(idents: columns, joinedBy: ", ")) VALUES \(values.joined(separator: ", "))"
            ).run()
        }
    }
}
