import ArgumentParser
import Foundation
import LatchServer

/// `latchd admin import FILE`: imports users from a JSON Lines file (issue 45 §1, docs/IMPORT.md); prints
/// the report as JSON, and a progress line on a terminal.
struct AdminImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import users from a JSON Lines file (docs/IMPORT.md); prints the report (JSON).")

    @Argument(help: ArgumentHelp("The file: one user per line.", valueName: "file"))
    var file: String

    @Flag(help: "Check the whole file and change nothing.")
    var dryRun = false

    func run() async throws {
        let onTerminal = isatty(STDERR_FILENO) == 1
        try await AdminConsole.run { admin in
            let report = try await admin.importUsers(at: file, dryRun: dryRun) { report in
                guard onTerminal else { return }
                FileHandle.standardError.write(
                    Data(
                        "\r\(report.lines) lines: \(report.imported) imported, \(report.updated) updated, \(report.unchanged) unchanged, \(report.refusedCount) refused"
                            .utf8))
            }
            if onTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
            return try AdminConsole.json(report)
        }
    }
}
