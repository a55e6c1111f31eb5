/// The emailed code of a verification in a terminal (issue 30 §3): with `--code-from-outbox`, the newest
/// code mailed to the signed-in address after "发送验证码" / "Send Code", once; otherwise (or when the server
/// refused that one) the person types it.
actor VerificationEmailCodes {
    private let reader: DevelopmentOutboxReader?
    private let email: String
    private let context: CLIContext
    /// Codes in the outbox before the last send.
    private var known = 0
    private var used = false

    /// Codes for `email`; from the development outbox when `fromOutbox`.
    init(context: CLIContext, email: String, fromOutbox: Bool) {
        self.context = context
        self.email = email
        self.reader = fromOutbox ? DevelopmentOutboxReader(context: context) : nil
    }

    var readsOutbox: Bool { reader != nil && !used }

    /// Counts the codes already in the outbox, before asking for another.
    func willSend() async throws {
        guard let reader else { return }
        known = try await reader.codes(to: email).count
    }

    /// The newest code mailed since `willSend()`, once; `nil` without the outbox or after it was used.
    func take() async throws -> String? {
        guard let reader, !used else { return nil }
        used = true
        context.terminal.line(context.text.codeFromOutbox(email))
        return try await reader.newCode(to: email, after: known)
    }
}
