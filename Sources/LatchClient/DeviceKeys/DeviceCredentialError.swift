import LatchCore

/// The device-credential failures the biometric flows tell apart.
public enum DeviceCredentialError: Error, Sendable, Hashable {
    /// The server does not know the credential (404): it was removed, e.g. from another device.
    case credentialNotFound
    /// The server refused the signature or challenge (AUTH_001 on the token grant).
    case signatureRejected
    /// No answer arrived (offline, timeout): suggest a retry; nothing is changed.
    case network
    /// Any other error answer, with its API code and the server's message (already in the request's
    /// language) when there was one.
    case server(code: LatchErrorCode?, message: String?)
}
