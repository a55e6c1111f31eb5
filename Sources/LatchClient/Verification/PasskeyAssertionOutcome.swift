import LatchCore

/// How asking the device's passkey ended, as the driver reports it to `VerificationFlow`.
public enum PasskeyAssertionOutcome: Sendable, Equatable {
    /// An assertion to send to the server.
    case asserted(AuthenticationResponseJSON)
    /// The person closed the system sheet.
    case cancelled
    /// The device could not answer (no passkey after all, an error of the authenticator).
    case failed
}
