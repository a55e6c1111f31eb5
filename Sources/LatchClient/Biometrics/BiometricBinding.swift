/// This device's biometric login as the server knows it: the id of the bound device credential and
/// the sensor it was enabled with (B5).
public struct BiometricBinding: Codable, Sendable, Hashable {
    /// The server's id of the device credential (`credential_id`).
    public var credentialID: String
    /// The sensor biometric login was enabled with.
    public var biometry: BiometryKind

    public init(credentialID: String, biometry: BiometryKind) {
        self.credentialID = credentialID
        self.biometry = biometry
    }

    enum CodingKeys: String, CodingKey {
        case credentialID = "credential_id"
        case biometry
    }
}
