import Crypto

/// The RFC 8785 (JSON Canonicalization Scheme) form of a verification action's `parameters` — a flat
/// object of strings — and its digest, which binds a device signature and a verification token to
/// exactly those parameters (D3, and the signed-message contract in ARCHITECTURE.md).
///
/// Canonical form: members sorted by the UTF-16 code units of their names, no whitespace, strings
/// escaped as ECMAScript `JSON.stringify` does — `\"`, `\\`, `\b \f \n \r \t`, other controls
/// below U+0020 as `\u00xx` (lower-case hex); everything else, `/` and non-ASCII included, as is.
///
///     let parameters = ["amount": "100.00", "currency": "USDT", "address": "TXabc"]
///     CanonicalParameters.json(parameters)   // {"address":"TXabc","amount":"100.00","currency":"USDT"}
///     CanonicalParameters.digest(parameters) // lower-case hex SHA-256 of those UTF-8 bytes
public enum CanonicalParameters {
    /// The canonical JSON text of `parameters`.
    public static func json(_ parameters: [String: String]) -> String {
        String(decoding: utf8(parameters), as: UTF8.self)
    }

    /// The UTF-8 bytes of the canonical JSON of `parameters` (the bytes the digest is taken over).
    public static func utf8(_ parameters: [String: String]) -> [UInt8] {
        let names = parameters.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
        var output: [UInt8] = [UInt8(ascii: "{")]
        for (index, name) in names.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            appendString(name, to: &output)
            output.append(UInt8(ascii: ":"))
            appendString(parameters[name]!, to: &output)
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// Lower-case hex SHA-256 of the canonical UTF-8 bytes of `parameters` (64 characters).
    public static func digest(_ parameters: [String: String]) -> String {
        Hex.lowercase(SHA256.hash(data: utf8(parameters)))
    }

    /// Appends `text` as a JSON string. Working on UTF-8 bytes is exact: every byte of a multi-byte
    /// sequence is ≥ 0x80, so only ASCII bytes can need escaping.
    private static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x08: output += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0a: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0c: output += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0d: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x00..<0x20: output += Array("\\u00".utf8) + Hex.lowercaseBytes(of: byte)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
