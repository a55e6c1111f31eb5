import Foundation

/// The JSON coders of the API: ISO 8601 dates, keys as each type declares them (snake_case).
enum LatchJSON {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// One decoder for every request body (a `JSONDecoder` is safe to share once configured; making one per
    /// request was part of the 3.9 % `decodeJSON` took of a refresh, issue 21).
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
