import Foundation
import LatchCore
import Testing

/// Issue 13 (CBOR and COSE): the strict decoder against RFC 8949 Appendix A. Every vector inside the
/// WebAuthn subset decodes to the expected item and encodes back to the same bytes; every vector
/// outside it (floats, tags, undefined, simple values, indefinite lengths) is refused.
@Suite("Issue 13 CBOR (RFC 8949 Appendix A)")
struct CBORVectorTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var output: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            output.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return output
    }

    static func entry(_ key: CBORValue, _ value: CBORValue) -> CBORMapEntry { CBORMapEntry(key, value) }

    /// (hex, item) pairs from Appendix A that fall in the subset.
    static let accepted: [(String, CBORValue)] = [
        ("00", .unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)),
        ("1818", .unsigned(24)),
        ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)),
        ("1a000f4240", .unsigned(1_000_000)),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)), ("1bffffffffffffffff", .unsigned(UInt64.max)),
        ("3bffffffffffffffff", .negative(UInt64.max)), ("20", .int(-1)), ("29", .int(-10)), ("3863", .int(-100)),
        ("3903e7", .int(-1000)), ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null), ("40", .bytes([])),
        ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6161", .text("a")), ("6449455446", .text("IETF")),
        ("62225c", .text("\"\\")), ("62c3bc", .text("\u{00fc}")), ("63e6b0b4", .text("\u{6c34}")),
        ("64f0908591", .text("\u{10151}")), ("80", .array([])), ("83010203", .array([.int(1), .int(2), .int(3)])),
        ("8301820203820405", .array([.int(1), .array([.int(2), .int(3)]), .array([.int(4), .int(5)])])),
        (
            "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
            .array((1...25).map { .int($0) })
        ),
        ("a0", .map([])), ("a201020304", .map([entry(.int(1), .int(2)), entry(.int(3), .int(4))])),
        (
            "a26161016162820203",
            .map([entry(.text("a"), .int(1)), entry(.text("b"), .array([.int(2), .int(3)]))])
        ),
        ("826161a161626163", .array([.text("a"), .map([entry(.text("b"), .text("c"))])])),
        (
            "a56161614161626142616361436164614461656145",
            .map([
                entry(.text("a"), .text("A")), entry(.text("b"), .text("B")), entry(.text("c"), .text("C")),
                entry(.text("d"), .text("D")), entry(.text("e"), .text("E"))
            ])
        )
    ]

    @Test("Issue 13: every Appendix A vector in the WebAuthn subset decodes, and encodes back to the same bytes")
    func test_13_appendixAVectorsInTheSubsetDecode() throws {
        for (hex, expected) in Self.accepted {
            let decoded = try CBORDecoder.decode(Self.bytes(hex))
            #expect(decoded == expected, "\(hex)")
            #expect(CBOREncoder.encode(expected) == Self.bytes(hex), "\(hex)")
        }
    }

    /// Appendix A vectors outside the subset, with the reason each is refused.
    static let refused: [(String, CBORError)] = [
        // Bignums are tags 2 and 3.
        ("c249010000000000000000", .unsupportedItem(majorType: 6, additionalInformation: 2)),
        ("c349010000000000000000", .unsupportedItem(majorType: 6, additionalInformation: 3)),
        // Floats (half, single, double).
        ("f90000", .unsupportedItem(majorType: 7, additionalInformation: 25)),
        ("f93c00", .unsupportedItem(majorType: 7, additionalInformation: 25)),
        ("fa47c35000", .unsupportedItem(majorType: 7, additionalInformation: 26)),
        ("fb3ff199999999999a", .unsupportedItem(majorType: 7, additionalInformation: 27)),
        ("f97c00", .unsupportedItem(majorType: 7, additionalInformation: 25)),
        // undefined and other simple values.
        ("f7", .unsupportedItem(majorType: 7, additionalInformation: 23)),
        ("f0", .unsupportedItem(majorType: 7, additionalInformation: 16)),
        ("f8ff", .unsupportedItem(majorType: 7, additionalInformation: 24)),
        // Tags: a date string, epoch time, an encoded CBOR item, a URI.
        ("c074323031332d30332d32315432303a30343a30305a", .unsupportedItem(majorType: 6, additionalInformation: 0)),
        ("c11a514b67b0", .unsupportedItem(majorType: 6, additionalInformation: 1)),
        ("d74401020304", .unsupportedItem(majorType: 6, additionalInformation: 23)),
        ("d818456449455446", .unsupportedItem(majorType: 6, additionalInformation: 24)),
        // Indefinite-length strings, arrays and maps.
        ("5f42010243030405ff", .indefiniteLength),
        ("7f657374726561646d696e67ff", .indefiniteLength),
        ("9fff", .indefiniteLength),
        ("9f018202039f0405ffff", .indefiniteLength),
        ("83018202039f0405ff", .indefiniteLength),
        ("bf61610161629f0203ffff", .indefiniteLength),
        ("bf6346756ef563416d7421ff", .indefiniteLength)
    ]

    @Test(
        "Issue 13: Appendix A vectors outside the subset (tags, floats, simple values, indefinite lengths) are refused")
    func test_13_appendixAVectorsOutsideTheSubsetAreRefused() {
        for (hex, reason) in Self.refused {
            #expect(throws: reason, "\(hex)") { try CBORDecoder.decode(Self.bytes(hex)) }
        }
    }

    @Test("Issue 13: non-shortest arguments, trailing bytes, truncation, bad UTF-8 and duplicate keys are refused")
    func test_13_strictnessRules() {
        #expect(throws: CBORError.nonMinimalEncoding) { try CBORDecoder.decode(Self.bytes("1805")) }
        #expect(throws: CBORError.nonMinimalEncoding) { try CBORDecoder.decode(Self.bytes("190017")) }
        #expect(throws: CBORError.nonMinimalEncoding) { try CBORDecoder.decode(Self.bytes("5800")) }
        #expect(throws: CBORError.nonMinimalEncoding) { try CBORDecoder.decode(Self.bytes("1b00000000ffffffff")) }
        #expect(throws: CBORError.trailingBytes) { try CBORDecoder.decode(Self.bytes("0000")) }
        #expect(throws: CBORError.truncated) { try CBORDecoder.decode(Self.bytes("")) }
        #expect(throws: CBORError.truncated) { try CBORDecoder.decode(Self.bytes("1903")) }
        #expect(throws: CBORError.truncated) { try CBORDecoder.decode(Self.bytes("44010203")) }
        #expect(throws: CBORError.truncated) {
            try CBORDecoder.decode(Self.bytes("83 01 02".replacingOccurrences(of: " ", with: "")))
        }
        // An array claiming 2^32 entries in 5 bytes fails at once, without allocating.
        #expect(throws: CBORError.tooLong) { try CBORDecoder.decode(Self.bytes("9b0000000100000000")) }
        #expect(throws: CBORError.truncated) { try CBORDecoder.decode(Self.bytes("9a00010000")) }
        #expect(throws: CBORError.invalidUTF8) { try CBORDecoder.decode(Self.bytes("62c328")) }
        #expect(throws: CBORError.duplicateMapKey) { try CBORDecoder.decode(Self.bytes("a201020103")) }
        #expect(throws: CBORError.reservedAdditionalInformation) { try CBORDecoder.decode(Self.bytes("1c")) }
        #expect(throws: CBORError.indefiniteLength) { try CBORDecoder.decode(Self.bytes("ff")) }
    }

    @Test("Issue 13: nesting beyond the depth limit and strings beyond the length limit are refused")
    func test_13_depthAndLengthLimits() throws {
        let limits = CBORDecoder.Limits(maximumDepth: 4, maximumLength: 8)
        #expect(
            try CBORDecoder.decode(Self.bytes("81818180"), limits: limits) == .array([.array([.array([.array([])])])]))
        #expect(throws: CBORError.tooDeep) { try CBORDecoder.decode(Self.bytes("8181818180"), limits: limits) }
        #expect(throws: CBORError.tooLong) {
            try CBORDecoder.decode(Self.bytes("49010203040506070809"), limits: limits)
        }
        // The standard limit stops a 10,000-deep array without exhausting the stack.
        let deep = [UInt8](repeating: 0x81, count: 10_000) + [0x80]
        #expect(throws: CBORError.tooDeep) { try CBORDecoder.decode(deep) }
    }

    @Test("Issue 13: decodePrefix says where the first item ends")
    func test_13_decodePrefixReportsTheLength() throws {
        let (value, length) = try CBORDecoder.decodePrefix(Self.bytes("a10102ff00"))
        #expect(value == .map([Self.entry(.int(1), .int(2))]))
        #expect(length == 3)
    }
}
