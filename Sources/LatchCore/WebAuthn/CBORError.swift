/// Why bytes are not a CBOR item of the WebAuthn subset that `CBORDecoder` accepts.
public enum CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input ends inside an item.
    case truncated
    /// Bytes follow the single top-level item.
    case trailingBytes
    /// An indefinite length (additional information 31) or a lone "break".
    case indefiniteLength
    /// Additional information 28, 29 or 30 (reserved in RFC 8949).
    case reservedAdditionalInformation
    /// A tag (major type 6), a float, `undefined` or another simple value: outside the subset.
    case unsupportedItem(majorType: UInt8, additionalInformation: UInt8)
    /// An argument that a shorter head could have carried (RFC 8949 §4.2.1, preferred serialization).
    case nonMinimalEncoding
    /// Nested deeper than the limit.
    case tooDeep
    /// A string, array or map longer than the limit.
    case tooLong
    /// A text string that is not UTF-8.
    case invalidUTF8
    /// A map with the same key twice.
    case duplicateMapKey

    public var description: String {
        switch self {
        case .truncated: "CBOR input ends inside an item"
        case .trailingBytes: "CBOR input has bytes after the item"
        case .indefiniteLength: "CBOR indefinite lengths are not accepted"
        case .reservedAdditionalInformation: "CBOR additional information 28–30 is reserved"
        case .unsupportedItem(let major, let info):
            "CBOR item of major type \(major) (\(info)) is outside the WebAuthn subset"
        case .nonMinimalEncoding: "CBOR argument is not in its shortest form"
        case .tooDeep: "CBOR items are nested too deeply"
        case .tooLong: "CBOR string, array or map is too long"
        case .invalidUTF8: "CBOR text string is not UTF-8"
        case .duplicateMapKey: "CBOR map has a duplicate key"
        }
    }
}
