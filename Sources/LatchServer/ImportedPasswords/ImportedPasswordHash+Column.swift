import Foundation

extension ImportedPasswordHash {
    /// What begins `users.password_hash` (and `fund_passwords.password_hash`) when it holds another system's
    /// hash, before the first sign-in replaces it with latchd's own: `imported:` and the hash's stored text.
    static let columnPrefix = "imported:"

    /// The imported hash a password column holds, or nil when it holds latchd's own bcrypt.
    static func inColumn(_ column: String) -> ImportedPasswordHash? {
        guard column.hasPrefix(columnPrefix) else { return nil }
        return try? ImportedPasswordHash(stored: String(column.dropFirst(columnPrefix.count)), allowLegacy: true)
    }

    /// `recovery_codes.code_hash` of an imported recovery code: `imported:`, a random id (the column is the
    /// key) and the hash's stored text. latchd's own codes are keyed hashes (64 hex digits), never this.
    static func recoveryCodeKey(_ hash: ImportedPasswordHash) -> String {
        "\(columnPrefix)\(UUID().uuidString.lowercased()):\(hash.stored)"
    }

    /// The imported hash of a `recovery_codes.code_hash` made by `recoveryCodeKey`.
    static func inRecoveryCodeKey(_ key: String) -> ImportedPasswordHash? {
        guard key.hasPrefix(columnPrefix) else { return nil }
        let rest = key.dropFirst(columnPrefix.count).drop { $0 != ":" }.dropFirst()
        return try? ImportedPasswordHash(stored: String(rest), allowLegacy: true)
    }
}
