import Foundation

/// A hash field of an import line as written: a string (`$2b$…`, `$argon2id$…`, `pbkdf2_sha256$…`) or an
/// object (`{"algorithm": "firebase_scrypt", …}`). `text` is what is parsed and stored: the string, or the
/// object as JSON with sorted keys, so the same hash always stores the same text.
struct ImportedHashValue: Codable, Sendable, Equatable {
    let text: String

    init(text: String) { self.text = text }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            text = string
            return
        }
        let object = try container.decode([String: FlatJSON].self)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        text = String(decoding: try encoder.encode(object), as: UTF8.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if text.hasPrefix("{"), let object = try? JSONDecoder().decode([String: FlatJSON].self, from: Data(text.utf8)) {
            try container.encode(object)
        } else {
            try container.encode(text)
        }
    }

    /// A value of a hash object: a string or a number (no nesting).
    enum FlatJSON: Codable, Sendable, Equatable {
        case string(String)
        case number(Int)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                self = .number(number)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let string): try container.encode(string)
            case .number(let number): try container.encode(number)
            }
        }
    }
}
