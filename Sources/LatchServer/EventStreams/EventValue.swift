/// A value of an outbound event's `data` (issue 42 §1): only what JSON needs, so a payload is built from
/// named fields and never from a free-form dictionary a secret could slip into.
enum EventValue: Sendable, Equatable, Encodable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case strings([String])
    case object([String: EventValue])

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
