/// A small, strict CBOR decoder (RFC 8949) for the subset WebAuthn needs (`CBORValue`).
///
/// Strict on purpose, since its input comes from anyone:
/// - definite lengths only (no indefinite strings, arrays or maps);
/// - arguments in their shortest form (RFC 8949 §4.2.1): `0x18 0x05` for 5 is refused, as CTAP2's
///   canonical encoding, which authenticators use, never produces it;
/// - no tags, floats, `undefined` or simple values other than `false`, `true` and `null`;
/// - text strings must be UTF-8, map keys unique;
/// - nesting at most `Limits.maximumDepth` deep, strings and containers at most `Limits.maximumLength`
///   long (and never longer than the bytes left, so a forged length cannot make it allocate);
/// - `decode(_:)` refuses bytes after the item; `decodePrefix(_:)` says where the item ended
///   (authenticator data holds a COSE key followed by more data).
///
///     let object = try CBORDecoder.decode(attestationObjectBytes)
///     let format = object["fmt"]?.textString
public struct CBORDecoder: Sendable {
    /// How deep and how long items may be.
    public struct Limits: Sendable, Equatable {
        /// Arrays and maps nested at most this deep (the top-level item is depth 1).
        public var maximumDepth: Int
        /// Byte and text strings at most this many bytes, arrays and maps at most this many entries.
        public var maximumLength: Int

        public init(maximumDepth: Int = 16, maximumLength: Int = 65_536) {
            self.maximumDepth = maximumDepth
            self.maximumLength = maximumLength
        }

        /// 16 levels, 64 KiB: WebAuthn structures nest 4 deep at most and fit in a 64 KiB request.
        public static let standard = Limits()
    }

    private let bytes: [UInt8]
    private let limits: Limits
    private var position: Int

    private init(bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
        self.position = 0
    }

    /// The one item `bytes` hold; throws `CBORError` when they hold anything else or more.
    public static func decode(_ bytes: some Collection<UInt8>, limits: Limits = .standard) throws -> CBORValue {
        let (value, length) = try decodePrefix(bytes, limits: limits)
        guard length == bytes.count else { throw CBORError.trailingBytes }
        return value
    }

    /// The item at the start of `bytes` and how many bytes it took.
    public static func decodePrefix(_ bytes: some Collection<UInt8>, limits: Limits = .standard) throws -> (
        CBORValue, Int
    ) {
        var decoder = CBORDecoder(bytes: Array(bytes), limits: limits)
        let value = try decoder.item(depth: 1)
        return (value, decoder.position)
    }

    private mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw CBORError.truncated }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func take(_ count: Int) throws -> [UInt8] {
        guard count <= bytes.count - position else { throw CBORError.truncated }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// The argument of a head with additional information `info` (0…27), in its shortest form.
    private mutating func argument(_ info: UInt8) throws -> UInt64 {
        switch info {
        case 0...23:
            return UInt64(info)
        case 24...27:
            let width = 1 << Int(info - 24)
            var value: UInt64 = 0
            for byte in try take(width) { value = value << 8 | UInt64(byte) }
            let smallest: UInt64 =
                switch info {
                case 24: 24
                case 25: 0x100
                case 26: 0x1_0000
                default: 0x1_0000_0000
                }
            guard value >= smallest else { throw CBORError.nonMinimalEncoding }
            return value
        case 28...30:
            throw CBORError.reservedAdditionalInformation
        default:
            throw CBORError.indefiniteLength
        }
    }

    /// A length argument, within the limit and (for strings) the bytes left.
    private mutating func length(_ info: UInt8) throws -> Int {
        let value = try argument(info)
        guard value <= UInt64(limits.maximumLength) else { throw CBORError.tooLong }
        // Every entry takes at least one byte: a longer count cannot be real.
        guard value <= UInt64(bytes.count - position) else { throw CBORError.truncated }
        return Int(value)
    }

    private mutating func item(depth: Int) throws -> CBORValue {
        guard depth <= limits.maximumDepth else { throw CBORError.tooDeep }
        let head = try byte()
        let major = head >> 5
        let info = head & 0x1f
        switch major {
        case 0:
            return .unsigned(try argument(info))
        case 1:
            return .negative(try argument(info))
        case 2:
            return .bytes(try take(try length(info)))
        case 3:
            let raw = try take(try length(info))
            // `String(validating:as:)` needs iOS 18; decoding repairs bad UTF-8 with U+FFFD, so a
            // round trip that changes the bytes means they were not UTF-8.
            let text = String(decoding: raw, as: UTF8.self)
            guard text.utf8.elementsEqual(raw) else { throw CBORError.invalidUTF8 }
            return .text(text)
        case 4:
            let count = try length(info)
            var items: [CBORValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try item(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try length(info)
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(count)
            var keys = Set<CBORValue>()
            for _ in 0..<count {
                let key = try item(depth: depth + 1)
                guard keys.insert(key).inserted else { throw CBORError.duplicateMapKey }
                entries.append(CBORMapEntry(key, try item(depth: depth + 1)))
            }
            return .map(entries)
        case 6:
            throw CBORError.unsupportedItem(majorType: 6, additionalInformation: info)
        default:
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 28...30: throw CBORError.reservedAdditionalInformation
            case 31: throw CBORError.indefiniteLength
            default: throw CBORError.unsupportedItem(majorType: 7, additionalInformation: info)
            }
        }
    }
}
