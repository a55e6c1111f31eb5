import Foundation

/// A time in an import line: epoch seconds, or an ISO 8601 date and time (`2021-03-04T05:06:07Z`).
struct ImportedDate: Codable, Sendable, Equatable {
    let epochSeconds: Double

    init(epochSeconds: Double) { self.epochSeconds = epochSeconds }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            guard seconds.isFinite, seconds >= 0, seconds < 32_503_680_000 else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a time")
            }
            epochSeconds = seconds
            return
        }
        let text = try container.decode(String.self)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) {
            epochSeconds = date.timeIntervalSince1970
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 time")
        }
    }

    /// Exports write epoch seconds.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(epochSeconds)
    }
}
