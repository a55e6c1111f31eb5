import FluentKit
import Foundation
import LatchCore
import SQLKit

/// Every statement of a user export (issue 45 §1): users a page at a time in id order, and the rows that
/// go with each page (identities, fund passwords, authenticator secrets, imported recovery codes).
struct UserExportStore: Sendable {
    /// One user's row as the export reads it.
    struct UserRow: Sendable {
        let id: UUID
        let email: String?
        let emailVerified: Bool
        let passwordHash: String?
        let nickname: String?
        let createdAt: Double
        let disabled: Bool
        let frozen: Bool
        let passwordChangeRequired: Bool
        let externalID: String?
    }

    /// Up to `limit` live users after `after` (nil: from the first).
    func page(after: UUID?, limit: Int, on database: any Database) async throws -> [UserRow] {
        let start: SQLQueryString = after.map { "AND u.id > \(bind: $0)" } ?? ""
        return try await database.sql.raw(
            """
            SELECT u.id, u.email, u.email_verified, u.password_hash, u.nickname, u.created_at, u.disabled_at,
              u.frozen_at, u.password_change_required, i.external_id
            FROM users u LEFT JOIN user_imports i ON i.user_id = u.id
            WHERE u.deleted_at IS NULL \(start)
            ORDER BY u.id LIMIT \(literal: limit)
            """
        ).all().map { row in
            UserRow(
                id: try row.decode(column: "id", as: UUID.self),
                email: try row.decode(column: "email", as: String?.self),
                emailVerified: try row.decode(column: "email_verified", as: Bool.self),
                passwordHash: try row.decode(column: "password_hash", as: String?.self),
                nickname: try row.decode(column: "nickname", as: String?.self),
                createdAt: try row.decode(column: "created_at", as: Double.self),
                disabled: try row.decode(column: "disabled_at", as: Double?.self) != nil,
                frozen: try row.decode(column: "frozen_at", as: Double?.self) != nil,
                passwordChangeRequired: try row.decode(column: "password_change_required", as: Bool.self),
                externalID: try row.decode(column: "external_id", as: String?.self))
        }
    }

    /// `(user, provider, subject)` of the page's identities.
    func identities(of users: [UUID], on database: any Database) async throws -> [(UUID, String, String)] {
        guard !users.isEmpty else { return [] }
        return try await database.sql.raw(
            "SELECT user_id, provider, subject FROM identities WHERE user_id IN (\(binds: users))"
        ).all().map {
            (
                try $0.decode(column: "user_id", as: UUID.self), try $0.decode(column: "provider", as: String.self),
                try $0.decode(column: "subject", as: String.self)
            )
        }
    }

    /// The page's fund password hashes, by user.
    func fundPasswords(of users: [UUID], on database: any Database) async throws -> [UUID: String] {
        guard !users.isEmpty else { return [:] }
        var hashes: [UUID: String] = [:]
        for row in try await database.sql.raw(
            "SELECT user_id, password_hash FROM fund_passwords WHERE user_id IN (\(binds: users))"
        ).all() {
            hashes[try row.decode(column: "user_id", as: UUID.self)] = try row.decode(
                column: "password_hash", as: String.self)
        }
        return hashes
    }

    /// The page's active authenticator secrets (sealed), by user.
    func sealedTOTPSecrets(of users: [UUID], on database: any Database) async throws -> [UUID: String] {
        guard !users.isEmpty else { return [:] }
        var secrets: [UUID: String] = [:]
        for row in try await database.sql.raw(
            "SELECT user_id, sealed_secret FROM totp_credentials WHERE active = \(bind: true) AND user_id IN (\(binds: users))"
        ).all() {
            secrets[try row.decode(column: "user_id", as: UUID.self)] = try row.decode(
                column: "sealed_secret", as: String.self)
        }
        return secrets
    }

    /// The page's unused imported recovery codes (`recovery_codes.code_hash` keys), by user.
    func importedRecoveryCodes(of users: [UUID], on database: any Database) async throws -> [UUID: [String]] {
        guard !users.isEmpty else { return [:] }
        var codes: [UUID: [String]] = [:]
        for row in try await database.sql.raw(
            """
            SELECT user_id, code_hash FROM recovery_codes
            WHERE used_at IS NULL AND code_hash LIKE \(bind: ImportedPasswordHash.columnPrefix + "%") AND user_id IN (\(binds: users))
            """
        ).all() {
            codes[try row.decode(column: "user_id", as: UUID.self), default: []].append(
                try row.decode(column: "code_hash", as: String.self))
        }
        return codes
    }
}
