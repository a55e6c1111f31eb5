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
        /// A policy limit refuses the action (POLICY_LIMIT, issue 30 §3): `latch verify` printed the limit page.
        case policyLimit = 5
        /// A new value of the action is locked (NEW_VALUE_LOCKED, issue 30 §3): `latch verify` printed the
        /// lock page.
        case newValueLocked = 6
    }

    /// The line to print on standard error; empty when everything was already said.
    var message: String
    var status: Status

    static func failed(_ message: String) -> CLIFailure { CLIFailure(message: message, status: .failed) }
    static func usage(_ message: String) -> CLIFailure { CLIFailure(message: message, status: .usage) }
    static func cancelled(_ message: String = "") -> CLIFailure { CLIFailure(message: message, status: .cancelled) }
    static func held() -> CLIFailure { CLIFailure(message: "", status: .held) }
    static func policyLimit() -> CLIFailure { CLIFailure(message: "", status: .policyLimit) }
    static func newValueLocked() -> CLIFailure { CLIFailure(message: "", status: .newValueLocked) }
}
