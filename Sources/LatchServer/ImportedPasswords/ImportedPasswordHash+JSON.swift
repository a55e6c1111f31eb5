import Foundation

/// The JSON object form of an imported hash (issue 45 §2): Firebase's scrypt and the legacy digests.
extension ImportedPasswordHash {
    /// The field every object has.
    private struct Header: Decodable {
        var algorithm: String
    }

    /// Reads a JSON object by its `algorithm`.
    init(object text: String, allowLegacy: Bool) throws(ImportedHashRefusal) {
        let data = Data(text.utf8)
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw .malformed("the JSON object has no algorithm")
        }
        if header.algorithm == FirebaseScryptHash.algorithm {
            guard let object = try? JSONDecoder().decode(FirebaseScryptHash.Object.self, from: data) else {
                throw .malformed("Firebase's hash, salt, salt_separator, signer_key, rounds and mem_cost are needed")
            }
            self = .firebaseScrypt(try FirebaseScryptHash(object))
        } else if LegacyDigestHash.Algorithm(rawValue: header.algorithm) != nil {
            guard allowLegacy else { throw .legacyNotAllowed }
            guard let object = try? JSONDecoder().decode(LegacyDigestHash.Object.self, from: data) else {
                throw .malformed("a digest needs a hex hash, and its salt and salt_position are text")
            }
            self = .legacyDigest(try LegacyDigestHash(object))
        } else {
            throw .unknownFormat
        }
    }

    /// `object` as JSON with sorted keys and unescaped slashes, so that the same hash always stores the same text.
    static func canonicalJSON(_ object: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(object), as: UTF8.self)
        } catch {
            // Strings, integers and an enum of strings always encode.
            preconditionFailure("an imported hash's JSON object did not encode: \(error)")
        }
    }
}
