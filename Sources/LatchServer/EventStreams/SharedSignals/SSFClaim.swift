/// A JSON value of a SET's claims (issue 42 §2): only the shapes SETs need, built from named fields.
enum SSFClaim: Sendable, Equatable, Codable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case strings([String])
    case object([String: SSFClaim])

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
            self = .object(try container.decode([String: SSFClaim].self))
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
