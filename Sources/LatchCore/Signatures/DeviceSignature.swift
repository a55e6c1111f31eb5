import Crypto
import Foundation

/// Device-key signatures (A11, B5, B6): ECDSA P-256 with SHA-256 over a `SignedMessage`, as the
/// Secure Enclave makes with `.ecdsaSignatureMessageX962SHA256`.
///
/// - public key: base64url of the 65-byte X9.63 uncompressed point (`04 ‖ X ‖ Y`), what
///   `SecKeyCopyExternalRepresentation` gives;
/// - signature: base64url of the DER `ECDSA-Sig-Value`.
///
///     // device (or a test)
///     let key = P256.Signing.PrivateKey()
///     let publicKey = DeviceSignature.publicKeyBase64URL(of: key.publicKey)
///     let signature = try DeviceSignature.sign(message, with: key)
///     // server
///     DeviceSignature.verify(publicKeyX963Base64URL: publicKey, signatureDERBase64URL: signature, message: message) // true
public enum DeviceSignature {
    /// Length of an X9.63 uncompressed P-256 point.
    public static let publicKeyLength = 65

    /// Whether `signatureDERBase64URL` is a valid signature of `message` by `publicKeyX963Base64URL`.
    ///
    /// Never throws or traps: malformed base64url, a key that is not a 65-byte uncompressed point on
    /// the curve, or a signature that is not DER all give `false`.
    public static func verify(publicKeyX963Base64URL: String, signatureDERBase64URL: String, message: SignedMessage)
        -> Bool
    {
        verify(
            publicKeyX963Base64URL: publicKeyX963Base64URL, signatureDERBase64URL: signatureDERBase64URL,
            message: message.bytes)
    }

    /// Whether `signatureDERBase64URL` is a valid signature of the raw `message` bytes.
    public static func verify(publicKeyX963Base64URL: String, signatureDERBase64URL: String, message: [UInt8]) -> Bool {
        guard let publicKey = publicKey(fromBase64URL: publicKeyX963Base64URL),
            let signatureBytes = Base64URL.decode(signatureDERBase64URL),
            let signature = try? P256.Signing.ECDSASignature(derRepresentation: signatureBytes)
        else { return false }
        // P256.Signing.PublicKey hashes the message with SHA-256 before verifying.
        return publicKey.isValidSignature(signature, for: message)
    }

    /// The public key in `text` (base64url of a 65-byte X9.63 uncompressed point), or `nil` when it
    /// is malformed, the wrong length or form, or not on the curve. Use it to validate a key at binding.
    public static func publicKey(fromBase64URL text: String) -> P256.Signing.PublicKey? {
        guard let bytes = Base64URL.decode(text), bytes.count == publicKeyLength, bytes[0] == 0x04 else { return nil }
        return try? P256.Signing.PublicKey(x963Representation: bytes)
    }

    /// The API form of `publicKey`: base64url of its 65-byte X9.63 representation.
    public static func publicKeyBase64URL(of publicKey: P256.Signing.PublicKey) -> String {
        Base64URL.encode(publicKey.x963Representation)
    }

    /// Signs `message` with `privateKey` (for software device keys and tests); returns base64url DER.
    /// ECDSA is randomized: every call gives a different, equally valid signature.
    public static func sign(_ message: SignedMessage, with privateKey: P256.Signing.PrivateKey) throws -> String {
        let signature = try privateKey.signature(for: message.bytes)
        return Base64URL.encode(signature.derRepresentation)
    }
}
