/// Why a biometric prompt ended without a match: the `LAError` code and what to do about it (B2).
public struct BiometricFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `LAError` code.
    public let code: BiometricErrorCode
    /// Whether a scan (Face ID) or touch (Touch ID) failed to match in this prompt before it ended.
    /// Always `true` for −1 (Touch ID reports it after three failed touches). The verification page
    /// counts a −2 or −8 with a failed scan as a failed attempt (see <doc:CountingBiometricAttempts>).
    /// `SimulatedAuthenticator` knows it exactly; `LocalAuthenticationAuthenticator` infers it with
    /// `FailedScanInference`, as `LAContext` reports no scans.
    public let scanFailed: Bool

    public init(code: BiometricErrorCode, scanFailed: Bool = false) {
        self.code = code
        self.scanFailed = scanFailed || code == .authenticationFailed
    }

    /// A failure from the integer `LAError` code (`(error as NSError).code`).
    public init(laErrorCode: Int, scanFailed: Bool = false) {
        self.init(code: BiometricErrorCode(code: laErrorCode), scanFailed: scanFailed)
    }

    /// How to react (B2): the handling class of this failure's `BiometricOutcome`. The class does not
    /// depend on the sensor (−6 is settings-like on every sensor).
    public var handling: BiometricFailureHandling {
        // A failure never maps to `.success`, the only outcome without a class.
        BiometricOutcome(self, kind: nil).handling ?? .unexpected
    }

    public var description: String {
        "LAError \(code.code) (\(code.name))"
            + (scanFailed && code != .authenticationFailed ? " after a failed scan" : "")
    }
}
