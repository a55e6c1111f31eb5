import ArgumentParser
import LatchServer

/// `latchd admin audit`: the newest 100 entries of the admin audit log, as JSON.
struct AdminAuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "The newest 100 admin audit entries (JSON).")

    func run() async throws {
        try await AdminConsole.run { admin in try AdminConsole.json(await admin.auditLog(cursor: nil, limit: 100)) }
    }
}
