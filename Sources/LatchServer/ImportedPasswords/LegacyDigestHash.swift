import Crypto
import LatchCore

/// An unsalted or salted MD5, SHA-1 or SHA-256 digest of a password (issue 45 §2), read only behind
/// `LATCH_IMPORT_LEGACY_HASHES=1`; its users are flagged for a password change.
///
/// The JSON object: `{"algorithm": "md5" | "sha1" | "sha256", "hash": "<hex>", "salt": "<text>",
/// "salt_position": "before" | "after"}`, the salt optional, before the password unless said otherwise.
struct LegacyDigestHash: Sendable, Equatable {
    /// The digest function.
    enum Algorithm: String, Sendable, CaseIterable {
        case md5, sha1, sha256

        /// The length of its digest in bytes.
        var byteCount: Int {
            switch self {
            case .md5: 16
            case .sha1: 20
            case .sha256: 32
            }
        }

        /// The digest of `bytes`.
        func digest(_ bytes: [UInt8]) -> [UInt8] {
            switch self {
            case .md5: Array(Insecure.MD5.hash(data: bytes))
            case .sha1: Array(Insecure.SHA1.hash(data: bytes))
            case .sha256: Array(SHA256.hash(data: bytes))
            }
        }
    }

    /// Where the salt goes.
    enum SaltPosition: String, Codable, Sendable {
        /// digest(salt ‖ password)
        case before
        /// digest(password ‖ salt)
        case after
    }

    /// A salt and where it goes.
    struct Salt: Sendable, Equatable {
        var text: String
        var position: SaltPosition
    }

    var algorithm: Algorithm
    var hash: [UInt8]
    /// The salt, or nil for an unsalted digest.
    var salt: Salt?

    /// The longest salt read.
    static let maxSaltLength = 1024

    /// The JSON object.
    struct Object: Codable {
        var algorithm: String
        var hash: String
        var salt: String?
        var saltPosition: SaltPosition?

        enum CodingKeys: String, CodingKey {
            case algorithm, hash, salt
            case saltPosition = "salt_position"
        }
    }

    /// Reads the JSON object; `algorithm` is known to be one of `Algorithm`'s.
    init(_ object: Object) throws(ImportedHashRefusal) {
        guard let algorithm = Algorithm(rawValue: object.algorithm) else { throw .unknownFormat }
        guard let hash = Self.hex(object.hash), hash.count == algorithm.byteCount else {
            throw .malformed("the \(algorithm.rawValue) hash is not \(algorithm.byteCount * 2) hex digits")
        }
        guard (object.salt?.utf8.count ?? 0) <= Self.maxSaltLength else {
            throw .malformed("the salt is over 1,024 bytes")
        }
        self.algorithm = algorithm
        self.hash = hash
        self.salt = object.salt.flatMap { $0.isEmpty ? nil : Salt(text: $0, position: object.saltPosition ?? .before) }
    }

    /// The JSON object stored and exported: lower-case hex, the salt's position said whenever there is a salt.
    var object: Object {
        Object(
            algorithm: algorithm.rawValue, hash: Hex.lowercase(hash),
            salt: salt?.text, saltPosition: salt?.position)
    }

    /// Whether `password` (with the salt) has this digest.
    func verify(_ password: String) -> Bool {
        let input =
            switch salt {
            case nil: password
            case let salt?: salt.position == .before ? salt.text + password : password + salt.text
            }
        return DerivedBytes.equal(algorithm.digest(Array(input.utf8)), hash)
    }

    /// The bytes of `text` in hex (either case), or nil.
    static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Hex.value(of: digits[index]), let low = Hex.value(of: digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
