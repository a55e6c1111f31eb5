import LatchClient

extension ApprovalEnd {
    /// The stable word of the `state:` line (`approved`, `denied`, `frozen`, `expired`, `wrong_number`,
    /// `closed`, `failed`), for scripts.
    var stateWord: String {
        switch self {
        case .approved: "approved"
        case .denied: "denied"
        case .frozen: "frozen"
        case .expired: "expired"
        case .wrongNumber: "wrong_number"
        case .closed: "closed"
        case .failed: "failed"
        }
    }

    /// The exit status: 0 decided (approved, denied, frozen), 3 closed, 1 otherwise.
    var failure: CLIFailure? {
        switch self {
        case .approved, .denied, .frozen: nil
        case .closed: .cancelled()
        case .expired, .wrongNumber, .failed: CLIFailure(message: "", status: .failed)
        }
    }
}
