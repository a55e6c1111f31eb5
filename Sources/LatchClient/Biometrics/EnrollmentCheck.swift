import Foundation

/// Whether the enrolled faces or fingers changed since biometric login was enabled (B4).
///
/// When biometric login is enabled, the domain state (`BiometricAuthenticator.domainState()`) is kept;
/// each later use compares it with the current one:
///
///     switch EnrollmentCheck.evaluate(stored: storedState, current: await authenticator.domainState()) {
///     case .notEnabled: hideBiometricLogin()
///     case .usable: evaluate()
///     case .changed: disableBiometricLogin(); askToEnableAgain()   // the session is left alone
///     }
public enum EnrollmentCheck: Sendable, Hashable {
    /// Nothing was kept: biometric login is not enabled on this device.
    case notEnabled
    /// No change found: biometric login stays enabled.
    case usable
    /// Someone added or removed a face or finger. Disable biometric login (delete the device key and the
    /// kept state) and ask the user to enable it again after signing in another way. This never signs
    /// anyone out: the session and its tokens stay where they are.
    case changed
    /// The state differs, but it was produced by another API or OS version than the kept one (an iOS
    /// update), so the difference proves nothing. Use biometric login as usual: if the device key still
    /// signs, the enrollment did not change, and the current state becomes the new baseline
    /// (`BiometricEnrollmentStore.rebaseline(to:)`); if the enclave refuses the key
    /// (`DeviceKeyError.unusable`), it did change.
    case unconfirmed

    /// Compares the kept domain state with the current one.
    ///
    /// A current state of `nil` means it cannot be read now — biometry is locked out, unavailable, or has
    /// no enrollments — which is not evidence of a change: the result is `.usable`, and the availability
    /// check (B1) decides whether biometrics can be used at this moment. Once enrollment is readable
    /// again, any change shows as a different state.
    public static func evaluate(stored: Data?, current: Data?) -> EnrollmentCheck {
        evaluate(
            kept: stored.map { DomainStateReading(state: $0) }, read: current.map { DomainStateReading(state: $0) })
    }

    /// Compares the kept reading with the current one, minding where each came from.
    ///
    /// Equal states: `.usable`. Different states from the same API on the same OS version, or both of
    /// unknown provenance: `.changed`. Different states where the provenance differs or only one side
    /// knows it (kept by an older SDK): `.unconfirmed`.
    public static func evaluate(kept stored: DomainStateReading?, read current: DomainStateReading?) -> EnrollmentCheck
    {
        guard let stored else { return .notEnabled }
        guard let current else { return .usable }
        if stored.state == current.state { return .usable }
        return stored.source == current.source ? .changed : .unconfirmed
    }
}
