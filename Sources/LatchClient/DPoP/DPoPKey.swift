import Foundation

/// A key that signs DPoP proofs (RFC 9449): P-256, ES256. On iOS it lives in the Secure Enclave and cannot
/// leave it (`SecureEnclaveDPoPKeyStore`); on Linux and in the CLI it is a software key in the vault.
public protocol DPoPKey: Sendable {
    /// The public key's `x` and `y` coordinates, 32 bytes each (the proof's `jwk`).
    var publicCoordinates: (x: Data, y: Data) { get }
    /// The ES256 signature of `data` as JWS wants it: `r ‖ s`, 64 bytes.
    func sign(_ data: Data) async throws -> Data
}

/// Where the session's DPoP key is made and kept, and discarded when the session ends.
public protocol DPoPKeyStore: Sendable {
    /// The stored key, made and stored first when there is none.
    func key() async throws -> any DPoPKey
    /// Forgets the key: the next sign-in makes a new one (signing out, a security reset).
    func discard() async throws
}
