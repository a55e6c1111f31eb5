import Foundation

/// Where a mailed code comes from: `--code`, the development outbox (`--code-from-outbox`), or the
/// person. Create it before the request that mails the code: it counts the codes already there.
struct EmailedCode {
    let context: CLIContext
    let email: String
    let given: String?
    let fromOutbox: Bool
    private let known: Int

    init(context: CLIContext, email: String, given: String?, fromOutbox: Bool) async throws {
        self.context = context
        self.email = email
        self.given = given
        self.fromOutbox = fromOutbox
        let outbox = DevelopmentOutboxReader(context: context)
        known =
            fromOutbox ? try await context.call(context.text.connecting) { try await outbox.codes(to: email).count } : 0
    }

    /// The code: the given one, the newest in the outbox (when `mailed`), else asked with `prompt`.
    func read(prompt: String, mailed: Bool = true) async throws -> String {
        if let given { return given }
        if fromOutbox, mailed {
            context.terminal.line(context.text.codeFromOutbox(email))
            let outbox = DevelopmentOutboxReader(context: context)
            return try await context.call(context.text.connecting) { try await outbox.newCode(to: email, after: known) }
        }
        guard let typed = await context.terminal.ask(prompt)?.trimmingCharacters(in: .whitespaces), !typed.isEmpty
        else {
            throw CLIFailure.cancelled(context.text.codeMissing)
        }
        return typed
    }
}
