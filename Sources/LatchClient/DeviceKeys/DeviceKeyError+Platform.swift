/// How the Secure Enclave key store reads the platform's errors, as plain Swift so that the rule is
/// tested on Linux (`SecureEnclaveDeviceKeyStore` only passes the numbers).
extension DeviceKeyError {
    /// `errSecUserCanceled`.
    static let userCanceledStatus = -128
    /// `errSecAuthFailed`: the key's access control refused the operation.
    static let authFailedStatus = -25293
    /// `errSecItemNotFound`.
    static let itemNotFoundStatus = -25300
    /// `errSecInteractionNotAllowed`: the Keychain cannot be used now (device locked).
    static let interactionNotAllowedStatus = -25308

    /// A Security framework `OSStatus` from reading or using the key.
    ///
    /// `errSecAuthFailed` is the enclave refusing a key whose access control (`.biometryCurrentSet`) no
    /// longer holds: the enrolled faces or fingers changed, so the key is invalidated for good →
    /// `.unusable`, which turns biometric sign-in off (B4). It is never a failed match: a face or finger
    /// that does not match ends the biometric prompt with an `LAError` instead. Reading it as a failed
    /// match made the user try again, forever.
    public init(securityStatus status: Int) {
        switch status {
        case Self.userCanceledStatus: self = .cancelled
        case Self.authFailedStatus: self = .unusable
        case Self.itemNotFoundStatus: self = .noKey
        case Self.interactionNotAllowedStatus: self = .unavailable
        default: self = .platform(code: status)
        }
    }

    /// An `LAError` code from the prompt the enclave showed for the key, read through the one mapping
    /// (`BiometricOutcome`): a no-match is `.authenticationFailed`; any cancel, the fallback button and a
    /// prompt that could not appear are `.cancelled`; a sensor that cannot be used now (locked out, off,
    /// not enrolled) is `.unavailable`; the rest is `.platform`.
    public init(localAuthenticationCode code: Int) {
        switch BiometricOutcome(BiometricFailure(laErrorCode: code), kind: nil) {
        case .failed: self = .authenticationFailed
        case .userCancel, .failedThenCancelled, .systemCancel, .appCancel, .userFallback, .notInteractive:
            self = .cancelled
        case .passcodeNotSet, .notAvailable, .permissionDenied, .notEnrolled, .lockout, .failedThenLockedOut:
            self = .unavailable
        case .success, .unexpected: self = .platform(code: code)
        }
    }
}
