/// Encodes `CBORValue`s in the shortest form (the software authenticator's attestation objects and
/// COSE keys). Maps keep the order they are given in: CTAP2's canonical order is the caller's job.
///
///     let bytes = CBOREncoder.encode(.map([CBORMapEntry(.text("fmt"), .text("none"))]))
public enum CBOREncoder {
    /// The encoding of `value`.
    public static func encode(_ value: CBORValue) -> [UInt8] {
        var output: [UInt8] = []
        append(value, to: &output)
        return output
    }

    private static func append(_ value: CBORValue, to output: inout [UInt8]) {
        switch value {
        case .unsigned(let n):
            appendHead(major: 0, argument: n, to: &output)
        case .negative(let n):
            appendHead(major: 1, argument: n, to: &output)
        case .bytes(let bytes):
            appendHead(major: 2, argument: UInt64(bytes.count), to: &output)
            output += bytes
        case .text(let text):
            appendHead(major: 3, argument: UInt64(text.utf8.count), to: &output)
            output += Array(text.utf8)
        case .array(let items):
            appendHead(major: 4, argument: UInt64(items.count), to: &output)
            for item in items { append(item, to: &output) }
        case .map(let entries):
            appendHead(major: 5, argument: UInt64(entries.count), to: &output)
            for entry in entries {
                append(entry.key, to: &output)
                append(entry.value, to: &output)
            }
        case .bool(let flag):
            output.append(flag ? 0xf5 : 0xf4)
        case .null:
            output.append(0xf6)
        }
    }

    private static func appendHead(major: UInt8, argument: UInt64, to output: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            output.append(type | UInt8(argument))
        case 24...0xff:
            output += [type | 24, UInt8(argument)]
        case 0x100...0xffff:
            output.append(type | 25)
            output += bigEndian(argument, width: 2)
        case 0x1_0000...0xffff_ffff:
            output.append(type | 26)
            output += bigEndian(argument, width: 4)
        default:
            output.append(type | 27)
            output += bigEndian(argument, width: 8)
        }
    }

    private static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
