/// Which outbound event types a stream hears (issue 42 §3): all of them, or the listed ones.
///
/// Stored as one text column the fan-out's `INSERT … SELECT` matches in SQL: `*`, or the types between
/// commas (`,account.frozen,session.revoked,`), so `LIKE '%,type,%'` finds a type without a second table.
enum EventTypeFilter: Sendable, Equatable {
    case all
    case only(Set<OutboundEvent.Kind>)

    /// Whether the stream hears `type`.
    func includes(_ type: OutboundEvent.Kind) -> Bool {
        switch self {
        case .all: true
        case .only(let types): types.contains(type)
        }
    }

    /// The column's text.
    var stored: String {
        switch self {
        case .all: "*"
        case .only(let types): "," + types.map(\.rawValue).sorted().joined(separator: ",") + ","
        }
    }

    /// Reads the column's text; an unknown type (from a later version) is dropped.
    init(stored: String) {
        if stored == "*" {
            self = .all
        } else {
            self = .only(Set(stored.split(separator: ",").compactMap { OutboundEvent.Kind(rawValue: String($0)) }))
        }
    }

    /// Reads an operator's list (`all`, `*`, or type names); nil names the first unknown type.
    static func parse(_ names: [String]) -> Result<EventTypeFilter, UnknownType> {
        if names.isEmpty || names == ["*"] || names == ["all"] { return .success(.all) }
        var types: Set<OutboundEvent.Kind> = []
        for name in names {
            guard let type = OutboundEvent.Kind(rawValue: name) else { return .failure(UnknownType(name: name)) }
            types.insert(type)
        }
        return .success(.only(types))
    }

    /// A name that is not an outbound event type.
    struct UnknownType: Error, Equatable {
        let name: String
    }
}
