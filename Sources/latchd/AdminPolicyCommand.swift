import ArgumentParser
import LatchServer

/// `latchd admin policy`: the verification policy latchd runs (issue 30 §1, `LATCH_POLICY_FILE`), every
/// action with its defaults filled in, as JSON.
struct AdminPolicyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy", abstract: "The verification policy latchd runs (JSON).")

    func run() async throws {
        try await AdminConsole.run { admin in try AdminConsole.json(await admin.policy()) }
    }
}
