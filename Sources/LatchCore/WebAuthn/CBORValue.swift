/// A CBOR data item (RFC 8949) of the subset WebAuthn uses: integers, byte and text strings,
/// arrays, maps, `true`, `false` and `null`. No floats, tags, `undefined` or other simple values.
///
///     let key = try CBORDecoder.decode(bytes)
///     let kty = key[.unsigned(1)]?.integer   // 2 for an EC2 COSE key
public indirect enum CBORValue: Sendable, Hashable {
    /// Major type 0: 0 … 2⁶⁴−1.
    case unsigned(UInt64)
    /// Major type 1: the value −1 − `n` (so `.negative(0)` is −1, `.negative(UInt64.max)` is −2⁶⁴).
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3 (valid UTF-8).
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, in the order of the encoding (keys are unique).
    case map([CBORMapEntry])
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null

    /// The integer `value` as CBOR (major type 0 or 1).
    public static func int(_ value: Int) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// The value of an integer item when it fits an `Int`, else nil.
    public var integer: Int? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): return n <= UInt64(Int.max) ? -1 - Int(n) : nil
        case .bytes, .text, .array, .map, .bool, .null: return nil
        }
    }

    /// The bytes of a byte string, else nil.
    public var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The text of a text string, else nil.
    public var textString: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The items of an array, else nil.
    public var arrayItems: [CBORValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The entries of a map, else nil.
    public var mapEntries: [CBORMapEntry]? {
        if case .map(let entries) = self { return entries }
        return nil
    }

    /// The value under `key` when this is a map that has it.
    public subscript(key: CBORValue) -> CBORValue? {
        mapEntries?.first(where: { $0.key == key })?.value
    }

    /// The value under the text key `key` when this is a map that has it.
    public subscript(key: String) -> CBORValue? { self[.text(key)] }

    /// The value under the integer key `key` (COSE labels) when this is a map that has it.
    public subscript(label key: Int) -> CBORValue? { self[.int(key)] }
}

/// One key and value of a CBOR map.
public struct CBORMapEntry: Sendable, Hashable {
    public var key: CBORValue
    public var value: CBORValue

    public init(_ key: CBORValue, _ value: CBORValue) {
        self.key = key
        self.value = value
    }
}
