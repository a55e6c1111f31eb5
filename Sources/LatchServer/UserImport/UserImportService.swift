import FluentKit
import Foundation

/// `latchd admin import` and `POST /v1/admin/imports` (issue 45 §1): a file or a batch of lines in,
/// a report out.
struct UserImportService: Sendable {
    let latch: LatchServices
    let database: any Database

    /// Whether legacy digests are imported (`LATCH_IMPORT_LEGACY_HASHES=1`).
    var allowLegacy: Bool { latch.config.importLegacyHashes }

    /// Imports the file at `path`; `progress` hears the report after every batch.
    func importFile(
        at path: String, dryRun: Bool, progress: (UserImportReport) -> Void = { _ in }
    ) async throws -> UserImportReport {
        let importer = UserImporter(latch: latch, database: database, allowLegacy: allowLegacy, dryRun: dryRun)
        var report = UserImportReport(dryRun: dryRun)
        try await UserImportFile(path: path).forEachBatch(of: importer.batchSize) { batch in
            try await importer.run(batch, into: &report)
            progress(report)
        }
        return report
    }

    /// Imports one batch (`POST /v1/admin/imports`), numbered by its place from 1, in one transaction.
    func importBatch(_ users: [ImportedUserLine?], dryRun: Bool) async throws -> UserImportReport {
        let importer = UserImporter(latch: latch, database: database, allowLegacy: allowLegacy, dryRun: dryRun)
        var report = UserImportReport(dryRun: dryRun)
        let lines = users.enumerated().map { UserImporter.Line(number: $0.offset + 1, parsed: $0.element) }
        try await importer.run(lines, into: &report)
        return report
    }
}
