import Foundation
import LatchServer

/// How a latchd command ends other than successfully: one line (or the usage) for the operator, and
/// the exit status.
struct LatchdFailure: Error, Sendable {
    /// The process's exit status (docs/OPERATIONS.md, "Admin API and `latchd admin`").
    enum Status: Int32, Sendable {
        /// The command failed, or the service refused it (e.g. `NOT_FOUND`).
        case failed = 1
        /// The command line is wrong, or a `LATCH_*` variable is.
        case usageOrConfiguration = 2
        /// `latchd admin delete` was not confirmed: nothing was deleted.
        case notConfirmed = 3
    }

    /// What to print on standard error; empty when everything was already said (or logged).
    var message: String
    var status: Status

    static func failed(_ message: String) -> LatchdFailure { LatchdFailure(message: message, status: .failed) }

    static func usage(_ message: String) -> LatchdFailure {
        LatchdFailure(message: message, status: .usageOrConfiguration)
    }

    /// The one line naming the variable that is wrong.
    static func configuration(_ error: ConfigurationError) -> LatchdFailure {
        usage("latchd: configuration error: \(error)")
    }

    /// Writes `text` and a line break to standard error.
    static func write(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
