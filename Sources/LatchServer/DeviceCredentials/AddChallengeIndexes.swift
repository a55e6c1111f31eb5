import FluentKit
import SQLKit

/// Indexes on the columns challenges are looked up by (issue 29 §3). Without them every biometric
/// verification's consume and retire, and every device-key sign-in's count of live challenges, read the
/// whole `signature_challenges` table (a profile of verifications showed the scan growing with the table);
/// `passkey_challenges` is retired by verification the same way.
struct AddChallengeIndexes: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.createIndex(
            "signature_challenges_verification_id", on: "signature_challenges", columns: "verification_id")
        try await database.createIndex(
            "signature_challenges_credential_id", on: "signature_challenges", columns: "credential_id")
        try await database.createIndex(
            "passkey_challenges_verification_id", on: "passkey_challenges", columns: "verification_id")
    }

    func revert(on database: any Database) async throws {
        for index in [
            "signature_challenges_verification_id", "signature_challenges_credential_id",
            "passkey_challenges_verification_id"
        ] {
            try await database.sql.drop(index: index).run()
        }
    }
}
