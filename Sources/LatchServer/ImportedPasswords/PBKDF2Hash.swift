import Crypto
import _CryptoExtras

/// A PBKDF2-HMAC hash made by another system (issue 45 §2), in the dialect it came in, which `stored` keeps:
/// passlib's `$pbkdf2-sha256$<rounds>$<salt>$<hash>` (and `-sha512`), salt and hash in adapted base64; or
/// Django's `pbkdf2_sha256$<iterations>$<salt>$<hash>`, the salt as plain text and the hash in base64.
struct PBKDF2Hash: Sendable, Equatable {
    /// The HMAC's hash function.
    enum Digest: String, Sendable {
        case sha256, sha512

        /// The function as swift-crypto names it.
        var function: KDF.Insecure.PBKDF2.HashFunction {
            switch self {
            case .sha256: .sha256
            case .sha512: .sha512
            }
        }
    }

    /// How the hash is written.
    enum Dialect: Sendable {
        /// `$pbkdf2-sha256$29000$salt$hash`, adapted base64.
        case passlib
        /// `pbkdf2_sha256$1000000$salt$hash`, salt in plain text, hash in standard base64.
        case django
    }

    var digest: Digest
    var dialect: Dialect
    var iterations: Int
    var salt: [UInt8]
    var hash: [UInt8]

    /// The prefixes read, with what they mean.
    static let prefixes: [(prefix: String, digest: Digest, dialect: Dialect)] = [
        ("$pbkdf2-sha256$", .sha256, .passlib), ("$pbkdf2-sha512$", .sha512, .passlib),
        ("pbkdf2_sha256$", .sha256, .django)
    ]
    /// The lengths of derived hash read (passlib makes 32 or 64, Django 32); the work grows with the length.
    static let hashLengths = 16...128
    /// The longest salt read.
    static let maxSaltLength = 1024

    /// Whether `text` claims to be one of the forms above.
    static func claims(_ text: String) -> Bool {
        prefixes.contains { text.hasPrefix($0.prefix) }
    }

    /// Reads one of the forms above.
    init(_ text: String) throws(ImportedHashRefusal) {
        guard let form = Self.prefixes.first(where: { text.hasPrefix($0.prefix) }) else { throw .unknownFormat }
        let fields = text.dropFirst(form.prefix.count).split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 3 else { throw .malformed("PBKDF2's form is \(form.prefix)iterations$salt$hash") }
        // swift-crypto hands BoringSSL the count as a UInt32.
        guard let iterations = HashNumber.parse(fields[0]), iterations >= 1, iterations <= UInt32.max else {
            throw .malformed("PBKDF2's iterations is not a number from 1 to 2^32 - 1")
        }
        let salt: [UInt8]?
        switch form.dialect {
        case .passlib: salt = HashBase64.decode(fields[1])
        case .django: salt = fields[1].isEmpty ? nil : Array(fields[1].utf8)
        }
        guard let salt, let hash = HashBase64.decode(fields[2]) else {
            throw .malformed("PBKDF2's salt or hash is not base64")
        }
        guard Self.hashLengths.contains(hash.count) else { throw .malformed("PBKDF2's hash is not 16 to 128 bytes") }
        guard salt.count <= Self.maxSaltLength else { throw .malformed("PBKDF2's salt is over 1,024 bytes") }
        (self.digest, self.dialect, self.iterations, self.salt, self.hash) =
            (form.digest, form.dialect, iterations, salt, hash)
    }

    /// The text stored and exported, in the dialect imported.
    var text: String {
        switch dialect {
        case .passlib:
            "$pbkdf2-\(digest.rawValue)$\(iterations)$\(HashBase64.passlib(salt))$\(HashBase64.passlib(hash))"
        case .django:
            "pbkdf2_\(digest.rawValue)$\(iterations)$\(String(decoding: salt, as: UTF8.self))$\(HashBase64.standard(hash))"
        }
    }

    /// Refuses iterations over the cap of the hash function.
    func check(_ caps: ImportedHashCaps) throws(ImportedHashRefusal) {
        let (parameter, cap) =
            switch digest {
            case .sha256: ("PBKDF2-SHA256 iterations", caps.pbkdf2SHA256Iterations)
            case .sha512: ("PBKDF2-SHA512 iterations", caps.pbkdf2SHA512Iterations)
            }
        guard iterations <= cap else { throw .overCap(parameter: parameter, value: iterations, cap: cap) }
    }

    /// Whether `password` derives `hash`.
    func verify(_ password: String) -> Bool {
        guard iterations >= 1, iterations <= UInt32.max,
            let key = try? KDF.Insecure.PBKDF2.deriveKey(
                from: Array(password.utf8), salt: salt, using: digest.function, outputByteCount: hash.count,
                unsafeUncheckedRounds: iterations)
        else { return false }
        return DerivedBytes.equal(key.withUnsafeBytes { Array($0) }, hash)
    }
}
