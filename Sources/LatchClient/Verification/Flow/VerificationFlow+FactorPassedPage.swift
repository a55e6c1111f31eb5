import LatchCore

/// The page between two factors (issue 30 §3): a policy asked for two, one passed; the page says which,
/// why another is needed, and "继续" / "Continue" opens the methods still open.
extension VerificationFlow {
    // MARK: Events only this page receives

    /// The server accepted the attempt, and the policy needs another factor of another kind: the page
    /// saying so, then only the offers still open (`progress.methods`, a passed kind never among them).
    /// Each method keeps its own count (biometrics' 1/3, the server's attempts for the codes).
    public mutating func serverAttemptNeedsAnotherFactor(_ progress: VerificationProgress) -> Action {
        switch state {
        case .active(var session, .biometric(.submittingSignature)), .active(var session, .secret(_, .submitting)),
            .active(var session, .passkey(.submitting)):
            session.advance(to: progress)
            state = .active(session, .factorPassed(progress))
            return .show(screens.factorPassed(session, progress, sensor: device.biometry.sensor ?? .faceID))
        case .finished:
            // Cancelled while the answer was on its way: the half-passed verification expires on the server.
            return .none
        case .initial, .starting, .startFailed, .active, .expired, .held, .policyLimited, .newValueLocked:
            preconditionFailure(
                "attempts are sent only on entering the submitting phases, which only the answer or finishing leaves")
        }
    }
}
