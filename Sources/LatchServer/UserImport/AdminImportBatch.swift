import Foundation

/// The body of `POST /v1/admin/imports` (issue 45 §1): up to `maximumUsers` users in the import format,
/// numbered by their place in `users` (from 1). A user that is not an object of the format is refused with
/// its number (`invalid_json`), as a bad line of a file is; the others go on.
struct AdminImportBatch: Decodable, Sendable {
    let users: [Element]
    let dryRun: Bool?

    static let maximumUsers = 1_000

    /// One user, or nil when it does not decode as one.
    struct Element: Decodable, Sendable {
        let line: ImportedUserLine?

        init(from decoder: any Decoder) throws {
            line = try? ImportedUserLine(from: decoder)
        }
    }

    enum CodingKeys: String, CodingKey {
        case users
        case dryRun = "dry_run"
    }
}

extension AdminService {
    /// `POST /v1/admin/imports`: one batch of users, in one transaction; the report as for a file. Audited.
    func importBatch(_ batch: AdminImportBatch) async throws -> UserImportReport {
        guard (1...AdminImportBatch.maximumUsers).contains(batch.users.count) else {
            throw LatchError.invalid("users", ["out_of_range"])
        }
        let report = try await UserImportService(latch: latch, database: appDatabase)
            .importBatch(batch.users.map(\.line), dryRun: batch.dryRun ?? false)
        return try await UserImporter.audited(report, by: self)
    }
}
