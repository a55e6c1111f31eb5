/// Reads a new password or fund password: from standard input for scripts, else asked twice
/// without echo.
struct PasswordEntry {
    let context: CLIContext

    func newPassword(fromStandardInput: Bool) async throws -> String {
        try await read(
            fromStandardInput: fromStandardInput, first: context.text.passwordPrompt,
            again: context.text.passwordAgain, differ: context.text.passwordsDiffer)
    }

    func newFundPassword(fromStandardInput: Bool) async throws -> String {
        try await read(
            fromStandardInput: fromStandardInput, first: context.text.fundPasswordPrompt,
            again: context.text.fundPasswordAgain, differ: context.text.fundPasswordsDiffer)
    }

    /// The password of an existing account: standard input or one prompt.
    func password(fromStandardInput: Bool) async throws -> String {
        let entered =
            fromStandardInput
            ? await StandardInput.shared.readLine(secret: false)
            : await context.terminal.ask(context.text.passwordPrompt, secret: true)
        guard let entered, !entered.isEmpty else { throw CLIFailure.failed(context.text.passwordMissing) }
        return entered
    }

    private func read(fromStandardInput: Bool, first: String, again: String, differ: String) async throws -> String {
        if fromStandardInput {
            guard let line = await StandardInput.shared.readLine(secret: false), !line.isEmpty else {
                throw CLIFailure.failed(context.text.passwordMissing)
            }
            return line
        }
        guard let entered = await context.terminal.ask(first, secret: true), !entered.isEmpty else {
            throw CLIFailure.cancelled(context.text.passwordMissing)
        }
        guard let repeated = await context.terminal.ask(again, secret: true) else {
            throw CLIFailure.cancelled(context.text.passwordMissing)
        }
        guard repeated == entered else { throw CLIFailure.failed(differ) }
        return entered
    }
}
