import Foundation

/// latchd's own password hash in an export file (issue 45 §1): bcrypt over base64(SHA-256(password)), as
/// `PasswordHasher` makes it, written `{"algorithm": "latch_bcrypt_sha256", "hash": "$2b$12$…"}` so another
/// latchd imports it as its own and no system mistakes it for plain bcrypt.
struct LatchPasswordExport: Sendable, Equatable {
    static let algorithm = "latch_bcrypt_sha256"
    let hash: String

    init(hash: String) { self.hash = hash }

    /// Reads the export form; nil for anything else.
    init?(text: String) {
        guard text.hasPrefix("{"),
            let object = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)),
            object["algorithm"] == Self.algorithm, object.count == 2, let hash = object["hash"],
            hash.hasPrefix("$2b$"), hash.utf8.count == 60
        else { return nil }
        self.hash = hash
    }

    /// bcrypt's cost, from `$2b$NN$`.
    var cost: Int? { Int(hash.dropFirst(4).prefix(2)) }

    /// The text an export writes (sorted keys, as `ImportedHashValue` stores objects).
    var text: String { #"{"algorithm":"\#(Self.algorithm)","hash":"\#(hash)"}"# }
}
