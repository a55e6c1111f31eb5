import Foundation

extension JSONDecoder.DateDecodingStrategy {
    /// The API's dates: ISO 8601, with or without fractional seconds (latchd writes whole seconds;
    /// the fractions are accepted so a newer server may add them).
    public static let latchISO8601: JSONDecoder.DateDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
    }
}
