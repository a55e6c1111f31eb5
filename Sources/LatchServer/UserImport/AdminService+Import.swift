import Foundation

extension AdminService {
    /// `latchd admin import FILE` (issue 45 §1): imports every line of the file (JSON Lines, docs/IMPORT.md),
    /// streaming; `progress` hears the running report after each batch. `dryRun` checks the whole file
    /// and changes nothing. The audit log gets one entry with the counts.
    public func importUsers(
        at path: String, dryRun: Bool, progress: (UserImportReport) -> Void = { _ in }
    ) async throws -> UserImportReport {
        let report = try await UserImportService(latch: latch, database: appDatabase)
            .importFile(at: path, dryRun: dryRun, progress: progress)
        return try await UserImporter.audited(report, by: self)
    }

    /// `latchd admin export-users FILE` (issue 45 §1): every user in the import format, the file made 0600;
    /// TOTP secrets only with `includeTOTPSecrets`. Answers how many users were written.
    public func exportUsers(to path: String, includeTOTPSecrets: Bool) async throws -> Int {
        let count = try await UserExporter(latch: latch, database: appDatabase)
            .export(to: path, includeTOTPSecrets: includeTOTPSecrets)
        try await audit(
            "export_users", target: nil, detail: "users=\(count) totp_secrets=\(includeTOTPSecrets)", result: "ok",
            on: appDatabase)
        return count
    }
}
