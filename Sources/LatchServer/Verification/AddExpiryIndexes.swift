import FluentKit
import SQLKit

/// Indexes on `expires_at` of the rows `ExpiredVerificationRows` deletes, so its round every minute on every
/// instance finds them by index instead of reading the whole of each table (on SQLite, under the write lock).
struct AddExpiryIndexes: AsyncMigration {
    static let tables = ["signature_challenges", "verifications", "verification_tokens"]

    func prepare(on database: any Database) async throws {
        for table in Self.tables {
            try await database.createIndex("\(table)_expires_at", on: table, columns: "expires_at")
        }
    }

    func revert(on database: any Database) async throws {
        for table in Self.tables {
            try await database.sql.drop(index: "\(table)_expires_at").run()
        }
    }
}
