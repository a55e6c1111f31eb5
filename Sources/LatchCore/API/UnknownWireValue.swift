/// Thrown while decoding a field of the shared vocabulary (e.g. `VerificationMethodKind`) that holds
/// a value this version does not know. latchd answers it 422 VALIDATION_FAILED with `field` (the
/// field's path) and `reasons` `["unknown"]`.
public struct UnknownWireValue: Error, Sendable, Equatable {
    /// The path of the field, e.g. `["method"]`.
    public let codingPath: [String]
    /// The value that was sent.
    public let value: String

    public init(codingPath: [String], value: String) {
        self.codingPath = codingPath
        self.value = value
    }
}

extension RawRepresentable where RawValue == String {
    /// Decodes a string of the shared vocabulary, throwing `UnknownWireValue` for one this version
    /// does not know (a plain `DecodingError` for anything not a string).
    static func decodeKnown(from decoder: any Decoder) throws -> Self {
        let raw = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: raw) else {
            throw UnknownWireValue(codingPath: decoder.codingPath.map(\.stringValue), value: raw)
        }
        return value
    }
}
