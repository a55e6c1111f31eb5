import HummingbirdBcrypt

/// bcrypt hashes made by other systems (issue 45 §2): `$2a$`, `$2b$` and `$2y$`, 60 characters.
///
/// All three are stored as `$2b$`. For a password they are the same algorithm; the C core that verifies them
/// reads only `$2a$` and `$2b$`, and its `$2a$` path wraps a key longer than 255 bytes, where `$2b$` caps
/// the key at 72 bytes as OpenBSD, passlib and PHP do.
enum ImportedBcrypt {
    /// The prefixes read, each followed by a two-digit cost, `$`, and 53 characters of salt and hash.
    static let prefixes = ["$2a$", "$2b$", "$2y$"]

    /// bcrypt's own base64 alphabet.
    private static let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// Whether `text` claims to be bcrypt (so that a bad one is malformed rather than unknown).
    static func claims(_ text: String) -> Bool {
        prefixes.contains { text.hasPrefix($0) }
    }

    /// `text` with its prefix made `$2b$`, after checking its length, cost and alphabet.
    static func normalized(_ text: String) throws(ImportedHashRefusal) -> String {
        let bytes = Array(text.utf8)
        guard claims(text) else { throw .unknownFormat }
        guard bytes.count == 60 else { throw .malformed("a bcrypt hash is 60 characters") }
        guard bytes[6] == UInt8(ascii: "$"), let cost = HashNumber.parse(String(decoding: bytes[4..<6], as: UTF8.self)),
            (4...31).contains(cost)
        else { throw .malformed("bcrypt's cost is two digits from 04 to 31") }
        guard bytes[7...].allSatisfy(alphabet.contains) else {
            throw .malformed("bcrypt's salt and hash are not in bcrypt's base64")
        }
        return "$2b$" + text.dropFirst(4)
    }

    /// The cost of a normalized hash (log2 of its rounds).
    static func cost(of hash: String) -> Int {
        HashNumber.parse(hash.dropFirst(4).prefix(2)) ?? Int.max
    }

    /// Whether `password` is the one hashed; false for a password with a NUL, which the C API cannot take.
    static func verify(_ password: String, hash: String) -> Bool {
        guard !password.utf8.contains(0) else { return false }
        return Bcrypt.verify(password, hash: hash)
    }
}
