/// A value of an outbound event's `data` (issue 42 §1): only what JSON needs, so a payload is built from
/// named fields and never from a free-form dictionary a secret could slip into. A SET's event claims
/// (issue 42 §2) are made of the same values, and read back by the tests.
enum EventValue: Sendable, Equatable, Codable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case strings([String])
    case object([String: EventValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String].self) {
            self = .strings(value)
        } else {
            self = .object(try container.decode([String: EventValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
