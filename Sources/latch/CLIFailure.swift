/// How a command ends other than successfully: one line for the person, and the exit status.
struct CLIFailure: Error, Sendable {
    /// The process's exit status.
    enum Status: Int32, Sendable {
        /// The command failed (the server refused, the network is down, …).
        case failed = 1
        /// The command line is wrong.
        case usage = 2
        /// The user cancelled.
        case cancelled = 3
        /// A security hold pauses the action (issue 19 §2): `latch verify` printed the hold page.
        case held = 4
    }

    /// The line to print on standard error; empty when everything was already said.
    var message: String
    var status: Status

    static func failed(_ message: String) -> CLIFailure { CLIFailure(message: message, status: .failed) }
    static func usage(_ message: String) -> CLIFailure { CLIFailure(message: message, status: .usage) }
    static func cancelled(_ message: String = "") -> CLIFailure { CLIFailure(message: message, status: .cancelled) }
    static func held() -> CLIFailure { CLIFailure(message: "", status: .held) }
}
