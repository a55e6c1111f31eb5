import ArgumentParser
import LatchClient
import LatchCore

/// `latch approvals`: the verifications waiting for this phone (issue 43 §2, `GET /v1/approvals`), one line
/// each: `verification_id: ID  action: ACTION  amount: AMOUNT UNIT  target: TARGET  expires_at: TIME`.
struct ApprovalsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approvals",
        abstract:
            "List the verifications waiting for this phone's approval (approve with `latch approve --verification ID`)."
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the approvals as JSON.")
    var json = false

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let approvals = try await context.call(context.text.connecting) {
            try await context.client.pendingPhoneApprovals()
        }
        if json {
            context.terminal.line(try JSONOutput.string(approvals))
            return
        }
        if approvals.isEmpty {
            context.terminal.line(context.language.pick("没有等待批准的请求", "Nothing is waiting for approval."))
            return
        }
        for approval in approvals {
            var fields = ["verification_id: \(approval.verificationId)", "action: \(approval.action)"]
            if let amount = approval.amount {
                fields.append("amount: " + [amount, approval.unit].compactMap { $0 }.joined(separator: " "))
            }
            if let target = approval.target { fields.append("target: \(target)") }
            fields.append("expires_at: \(CLIText.time(approval.expiresAt))")
            context.terminal.line(fields.joined(separator: "  "))
        }
    }
}
