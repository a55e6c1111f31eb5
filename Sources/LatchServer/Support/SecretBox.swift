import Crypto
import Foundation
import LatchCore

/// Keeps secrets at rest: AES-GCM encryption and keyed hashes, both under keys derived (HKDF-SHA256)
/// from `LATCH_SECRET_KEY`.
struct SecretBox: Sendable {
    private let encryptionKey: SymmetricKey
    private let hashKey: SymmetricKey

    init(secretKey: Data) {
        let master = SymmetricKey(data: secretKey)
        encryptionKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: master, info: Data("latch-aes-gcm-v1".utf8), outputByteCount: 32)
        hashKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: master, info: Data("latch-keyed-hash-v1".utf8), outputByteCount: 32)
    }

    /// Encrypts `plaintext`; base64 of nonce ‖ ciphertext ‖ tag.
    func seal(_ plaintext: Data) throws -> String {
        guard let combined = try AES.GCM.seal(plaintext, using: encryptionKey).combined else {
            preconditionFailure("AES.GCM with the default 12-byte nonce always has a combined form")
        }
        return combined.base64EncodedString()
    }

    /// Decrypts what `seal` produced; throws when it was tampered with or sealed under another key.
    func open(_ sealed: String) throws -> Data {
        guard let combined = Data(base64Encoded: sealed) else { throw CryptoKitError.incorrectParameterSize }
        return try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: encryptionKey)
    }

    /// A keyed hash (HMAC-SHA256, hex) of a short secret such as a 6-digit code, bound to its context,
    /// so a stolen database does not give codes away by a table lookup.
    func keyedHash(_ secret: String, context: String) -> String {
        Hex.lowercase(HMAC<SHA256>.authenticationCode(for: Data("\(context)\n\(secret)".utf8), using: hashKey))
    }

    /// Plain SHA-256 (hex) of a high-entropy secret such as a refresh token.
    static func hash(_ secret: String) -> String { Hex.lowercase(SHA256.hash(data: Data(secret.utf8))) }

    /// Compares two strings in time that depends only on their lengths.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
