/// Why a biometric prompt ended without a match: the `LAError` code and what to do about it (B2).
public struct BiometricFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `LAError` code.
    public let code: BiometricErrorCode

    public init(code: BiometricErrorCode) { self.code = code }

    /// A failure from the integer `LAError` code (`(error as NSError).code`).
    public init(laErrorCode: Int) { self.code = BiometricErrorCode(code: laErrorCode) }

    /// How to react (B2).
    public var handling: BiometricFailureHandling { code.handling }

    public var description: String { "LAError \(code.code) (\(code.name))" }
}
