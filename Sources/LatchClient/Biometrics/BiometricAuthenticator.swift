import Foundation

/// Biometric evaluation (B1–B4): `LocalAuthenticationAuthenticator` on Apple platforms,
/// `SimulatedAuthenticator` in tests and the CLI.
///
/// Each call to `evaluate` shows one prompt (implementations use a fresh `LAContext` each time: a reused,
/// already evaluated context returns success without prompting). Results arrive on whatever executor the
/// caller awaits from; await from the main actor to update UI (B7).
///
///     let authenticator: any BiometricAuthenticator = LocalAuthenticationAuthenticator()
///     guard case .available(let kind) = await authenticator.availability() else { return offerPassword() }
///     switch await authenticator.evaluate(reason: "Sign in to Latch", fallbackTitle: "Use Password") {
///     case .success:
///         let state = await authenticator.domainState()   // keep it to detect enrollment changes (B4)
///     case .failure(let failure):
///         switch failure.handling {
///         case .cancelLike, .retryWhenActive: break
///         case .settingsLike: showSettingsHint(kind)
///         case .lockout: offerPassword()
///         case .authenticationFailed, .unexpected: showMessage(failure)
///         case .userFallback: offerPassword()
///         }
///     }
public protocol BiometricAuthenticator: Sendable {
    /// Whether biometrics can be used now, and which sensor (B1).
    func availability() async -> BiometricAvailability

    /// Shows the biometric prompt with `reason`, the fallback button `fallbackTitle` (`nil`: the system's;
    /// `""`: none — see `BiometricFallbackButton`) and the cancel button `cancelTitle` (`nil`: the system's,
    /// in the device's language; the SDK passes "取消" / "Cancel" in its own language). A failure says
    /// whether a scan failed in the prompt (`BiometricFailure.scanFailed`).
    func evaluate(reason: String, fallbackTitle: String?, cancelTitle: String?) async -> BiometricResult

    /// Asks for the device passcode (policy `deviceOwnerAuthentication`) after a lockout (−8): entering
    /// it unlocks biometry again. `.success` when the passcode was entered; a failure otherwise (−2 when
    /// the user cancels, −5 when no passcode is set).
    func unlockWithPasscode(reason: String, cancelTitle: String?) async -> BiometricResult

    /// An opaque value that changes whenever the enrolled faces or fingers change (B4), or `nil` when it
    /// cannot be read now (no sensor, not enrolled, locked out). Compare with `EnrollmentCheck`.
    func domainState() async -> Data?

    /// `domainState()` with the API and OS version that produced it (B4, see `DomainStateReading`).
    /// The default knows no provenance.
    func domainStateReading() async -> DomainStateReading?

    /// Takes down the prompt that is up, if any (`LAContext.invalidate()`): the flow moved on (a timeout,
    /// the page cancelled). Its `evaluate` then ends with `.appCancel`. The default does nothing.
    func cancelEvaluation() async
}

extension BiometricAuthenticator {
    public func cancelEvaluation() async {}

    public func domainStateReading() async -> DomainStateReading? {
        await domainState().map { DomainStateReading(state: $0) }
    }

    /// The prompt with the system's cancel title.
    public func evaluate(reason: String, fallbackTitle: String?) async -> BiometricResult {
        await evaluate(reason: reason, fallbackTitle: fallbackTitle, cancelTitle: nil)
    }
}
