import FluentKit
import Foundation
import SQLKit

/// The statements on `recovery_codes` (D1, issue 44 §1): a user's codes written and removed, and one
/// used once, always by its stored hash (the service hashes the code).
struct RecoveryCodeStore: Sendable {
    /// Stores the code hashes `hashes` for `user`, each unused.
    func insert(_ hashes: [String], of user: UUID, on database: any Database) async throws {
        for hash in hashes {
            let record = RecoveryCodeRecord()
            record.id = hash
            record.userID = user
            try await record.create(on: database)
        }
    }

    /// Removes every recovery code of `user`.
    func removeAll(of user: UUID, on database: any Database) async throws {
        try await RecoveryCodeRecord.query(on: database).filter(\.$userID == user).delete()
    }

    /// Marks `user`'s unused code `hash` used at `now`; false when there is none (wrong or used before).
    func useOnce(_ hash: String, of user: UUID, now: Double, on database: any Database) async throws -> Bool {
        try await database.sql.useOnce(
            "recovery_codes", mark: "used_at", where: "code_hash = \(bind: hash) AND user_id = \(bind: user)",
            now: now, live: false, returning: ["code_hash"]) != nil
    }
}
