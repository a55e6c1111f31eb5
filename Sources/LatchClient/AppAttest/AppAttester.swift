import Foundation

/// App Attest (issue 31 §2) as the SDK uses it: the four calls of Apple's `DCAppAttestService`, so the
/// real service (`DeviceCheckAppAttester`, iOS only) and a simulated attester (`LatchAttestSimulator`,
/// with its own test CA, for Linux, the CLI and tests) are interchangeable.
///
/// A key id is the base64 (standard alphabet) SHA-256 of the attested key's public point, exactly as
/// `DCAppAttestService.generateKey` returns it. `clientDataHash` is always 32 bytes (a SHA-256).
public protocol AppAttester: Sendable {
    /// Whether this device can attest (false on the simulator, on Macs without the Secure Enclave, …).
    var isSupported: Bool { get }
    /// Makes a new key in the Secure Enclave and answers its key id.
    func generateKey() async throws -> String
    /// Apple's attestation object (CBOR, format `apple-appattest`) vouching for key `keyID` and `clientDataHash`.
    func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data
    /// An assertion (CBOR `{signature, authenticatorData}`) by key `keyID` over `clientDataHash`.
    func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data
}
