import Foundation
import LatchCore

/// The JSON coders of the API: keys as each LatchCore type declares them (snake_case), dates in ISO 8601.
enum APIJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Reads ISO 8601 dates with or without fractional seconds.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .latchISO8601
        return decoder
    }
}
