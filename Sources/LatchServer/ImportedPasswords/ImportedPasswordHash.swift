/// A password hash made by another system, as imported (issue 45 §2).
///
/// ```swift
/// let hash = try ImportedPasswordHash(stored: line.passwordHash, allowLegacy: config.importLegacyHashes)
/// try hash.check(.standard)
/// // … store `hash.stored`; at sign-in:
/// if try ImportedPasswordHash(stored: row.hash, allowLegacy: true).verify(password) { … }
/// ```
enum ImportedPasswordHash: Sendable, Equatable {
    /// `$2b$…` (read from `$2a$`, `$2b$` or `$2y$`).
    case bcrypt(String)
    /// `$argon2id$v=19$m=…,t=…,p=…$salt$hash`, and argon2i and argon2d.
    case argon2(Argon2Hash)
    /// passlib's `$scrypt$ln=…,r=…,p=…$salt$hash`.
    case scrypt(ScryptHash)
    /// Firebase's modified scrypt, a JSON object.
    case firebaseScrypt(FirebaseScryptHash)
    /// passlib's `$pbkdf2-sha256$…` and `$pbkdf2-sha512$…`, Django's `pbkdf2_sha256$iterations$salt$hash`.
    case pbkdf2(PBKDF2Hash)
    /// MD5, SHA-1 or SHA-256, unsalted or salted, a JSON object.
    case legacyDigest(LegacyDigestHash)

    /// Reads the stored text: a string format as above, or a JSON object (Firebase, legacy digests).
    /// Legacy digests are refused with `.legacyNotAllowed` unless `allowLegacy`.
    init(stored text: String, allowLegacy: Bool) throws(ImportedHashRefusal) {
        if text.drop(while: \.isWhitespace).hasPrefix("{") {
            self = try Self(object: text, allowLegacy: allowLegacy)
        } else if text.hasPrefix("$argon2") {
            self = .argon2(try Argon2Hash(phc: text))
        } else if ImportedBcrypt.claims(text) {
            self = .bcrypt(try ImportedBcrypt.normalized(text))
        } else if text.hasPrefix(ScryptHash.prefix) {
            self = .scrypt(try ScryptHash(phc: text))
        } else if PBKDF2Hash.claims(text) {
            self = .pbkdf2(try PBKDF2Hash(text))
        } else {
            throw .unknownFormat
        }
    }

    /// The canonical text to store: `try ImportedPasswordHash(stored: h.stored, allowLegacy: true) == h`.
    var stored: String {
        switch self {
        case .bcrypt(let hash): hash
        case .argon2(let hash): hash.phc
        case .scrypt(let hash): hash.phc
        case .firebaseScrypt(let hash): Self.canonicalJSON(hash.object)
        case .pbkdf2(let hash): hash.text
        case .legacyDigest(let hash): Self.canonicalJSON(hash.object)
        }
    }

    /// Refuses a cost over a cap, so that a sign-in against the hash cannot be a denial of service.
    func check(_ caps: ImportedHashCaps) throws(ImportedHashRefusal) {
        switch self {
        case .bcrypt(let hash):
            let cost = ImportedBcrypt.cost(of: hash)
            guard cost <= caps.bcryptCost else {
                throw .overCap(parameter: "bcrypt cost", value: cost, cap: caps.bcryptCost)
            }
        case .argon2(let hash): try hash.check(caps)
        case .scrypt(let hash): try hash.check(caps)
        case .firebaseScrypt(let hash): try hash.check(caps)
        case .pbkdf2(let hash): try hash.check(caps)
        case .legacyDigest: break
        }
    }

    /// Whether `password` is the one hashed, comparing the derived bytes in constant time. Never traps.
    func verify(_ password: String) -> Bool {
        switch self {
        case .bcrypt(let hash): ImportedBcrypt.verify(password, hash: hash)
        case .argon2(let hash): hash.verify(password)
        case .scrypt(let hash): hash.verify(password)
        case .firebaseScrypt(let hash): hash.verify(password)
        case .pbkdf2(let hash): hash.verify(password)
        case .legacyDigest(let hash): hash.verify(password)
        }
    }

    /// MD5, SHA-1 or SHA-256: such users are flagged for a password change.
    var isLegacy: Bool {
        if case .legacyDigest = self { true } else { false }
    }

    /// The format's name for reports and metrics: "bcrypt", "argon2id", "argon2i", "argon2d", "scrypt",
    /// "firebase_scrypt", "pbkdf2_sha256", "pbkdf2_sha512", "md5", "sha1" or "sha256".
    var formatName: String {
        switch self {
        case .bcrypt: "bcrypt"
        case .argon2(let hash): hash.variant.rawValue
        case .scrypt: "scrypt"
        case .firebaseScrypt: FirebaseScryptHash.algorithm
        case .pbkdf2(let hash): "pbkdf2_\(hash.digest.rawValue)"
        case .legacyDigest(let hash): hash.algorithm.rawValue
        }
    }
}
