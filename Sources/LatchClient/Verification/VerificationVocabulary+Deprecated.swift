import LatchCore

// Issue 23 §2: one vocabulary for the verification page and the API. The page's own names for the same
// things stay as deprecated aliases, so apps built on them keep compiling.

/// One way to pass a verification: the page uses LatchCore's `VerificationMethodKind` (the API's own
/// vocabulary, the same four cases and raw values).
@available(*, deprecated, renamed: "VerificationMethodKind")
public typealias VerificationMethod = VerificationMethodKind

/// The biometric sensor a verification uses: the page uses LatchCore's `BiometryKind`, the same sensor
/// names as biometric sign-in and the API (an Optic ID device is named so, and asks the app permission
/// as Face ID does).
@available(*, deprecated, renamed: "BiometryKind")
public typealias VerificationSensor = BiometryKind

extension BiometryKind {
    /// The page's sensor for a device sensor, from when the page had a type of its own: now the sensor itself.
    @available(*, deprecated, message: "the verification page uses BiometryKind itself")
    public init(_ kind: BiometryKind) {
        self = kind
    }
}
