import Crypto
import Foundation
import _CryptoExtras

/// A hash made by Firebase Authentication's modified scrypt (issue 45 §2), as the Firebase CLI exports it:
/// the user's `passwordHash` and `salt`, and the project's signer key, salt separator, rounds and memory cost.
///
/// key = scrypt(password, salt ‖ salt separator, N = 2^mem_cost, r = rounds, p = 1, 64 bytes);
/// hash = AES-256-CTR(key[0..<32], IV = 16 zero bytes) of the signer key.
struct FirebaseScryptHash: Sendable, Equatable {
    /// The AES-CTR encryption of the signer key.
    var hash: [UInt8]
    /// The user's salt.
    var salt: [UInt8]
    /// The project's salt separator (`Bw==` in every project seen).
    var saltSeparator: [UInt8]
    /// The project's signer key.
    var signerKey: [UInt8]
    /// scrypt's r.
    var rounds: Int
    /// log2 of scrypt's N.
    var memCost: Int

    /// The `algorithm` of the JSON object.
    static let algorithm = "firebase_scrypt"
    /// The longest salt, separator or signer key read.
    static let maxFieldLength = 1024

    /// The JSON object, with base64 fields.
    struct Object: Codable {
        var algorithm: String
        var hash: String
        var salt: String
        var saltSeparator: String
        var signerKey: String
        var rounds: Int
        var memCost: Int

        enum CodingKeys: String, CodingKey {
            case algorithm, hash, salt, rounds
            case saltSeparator = "salt_separator"
            case signerKey = "signer_key"
            case memCost = "mem_cost"
        }
    }

    /// Reads the JSON object's fields.
    init(_ object: Object) throws(ImportedHashRefusal) {
        guard let hash = HashBase64.decode(object.hash), let salt = HashBase64.decode(object.salt),
            let saltSeparator = HashBase64.decode(object.saltSeparator),
            let signerKey = HashBase64.decode(object.signerKey)
        else { throw .malformed("a Firebase scrypt field is not base64") }
        guard (1...62).contains(object.memCost) else { throw .malformed("Firebase's mem_cost is not from 1 to 62") }
        guard object.rounds >= 1, object.rounds < 1 << 30 else { throw .malformed("Firebase's rounds is out of range") }
        guard 16 * object.rounds > 62 || object.memCost < 16 * object.rounds else {
            throw .malformed("Firebase's mem_cost is too large for its rounds")
        }
        guard !signerKey.isEmpty, [salt, saltSeparator, signerKey].allSatisfy({ $0.count <= Self.maxFieldLength })
        else { throw .malformed("Firebase's signer key is empty, or a field is over 1,024 bytes") }
        guard hash.count == signerKey.count else {
            throw .malformed("Firebase's hash is not as long as its signer key")
        }
        self.hash = hash
        self.salt = salt
        self.saltSeparator = saltSeparator
        self.signerKey = signerKey
        self.rounds = object.rounds
        self.memCost = object.memCost
    }

    /// The JSON object stored and exported, base64 in the standard alphabet with padding.
    var object: Object {
        Object(
            algorithm: Self.algorithm, hash: HashBase64.standard(hash), salt: HashBase64.standard(salt),
            saltSeparator: HashBase64.standard(saltSeparator), signerKey: HashBase64.standard(signerKey),
            rounds: rounds, memCost: memCost)
    }

    /// Refuses 2^mem_cost over scrypt's N cap, rounds over scrypt's r cap, or the memory over its cap.
    func check(_ caps: ImportedHashCaps) throws(ImportedHashRefusal) {
        try ScryptHash.check(
            logN: memCost, r: rounds, caps: caps, nName: "Firebase 2^mem_cost", rName: "Firebase rounds")
    }

    /// Whether `password` gives `hash`; false, never a trap, when scrypt or AES cannot run.
    func verify(_ password: String) -> Bool {
        guard
            let key = ScryptHash.derive(
                password, salt: salt + saltSeparator, logN: memCost, r: rounds, p: 1, count: 64),
            let nonce = try? AES._CTR.Nonce(nonceBytes: [UInt8](repeating: 0, count: 16)),
            let encrypted = try? AES._CTR.encrypt(signerKey, using: SymmetricKey(data: key[0..<32]), nonce: nonce)
        else { return false }
        return DerivedBytes.equal(Array(encrypted), hash)
    }
}
