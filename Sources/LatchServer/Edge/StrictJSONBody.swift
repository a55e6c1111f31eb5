import LatchCore

/// The one reading of a request body every reader agrees on (issue 41 §3): before `JSONDecoder` sees a
/// body, it must be UTF-8 (no byte order mark, no UTF-16 or UTF-32, no invalid sequence; `JSONDecoder`
/// would quietly transcode the first two) and no object in it may name a key twice (`JSONDecoder` keeps
/// the first, other parsers the last: a proxy and latchd would act on different requests).
///
/// One pass over the bytes, with a stack as deep as the nesting, at most `maximumDepth`. Keys are
/// compared as `JSONDecoder` compares them: unescaped, as Swift strings (canonically equivalent
/// spellings such as `"\u00e9"` and `"e\u0301"` are the same key to it, so they count as a duplicate).
/// The scan stops at the first problem; grammar it does not need (numbers, literals) is left to the
/// decoder, which still reads the body afterwards.
///
///     StrictJSONBody.refusal(of: Array(#"{"a":1,"a":2}"#.utf8))  // .duplicateKey("a")
enum StrictJSONBody {
    /// Why a body is refused.
    enum Refusal: Equatable, Sendable {
        /// Not UTF-8: a byte order mark, a NUL byte (UTF-16 or UTF-32 text), or an invalid sequence.
        case notUTF8
        /// An object names this key (its path, `outer.inner`) more than once.
        case duplicateKey(String)
        /// Objects and arrays nest deeper than `maximumDepth`.
        case tooDeep
        /// Not JSON the scan can follow (an unterminated string, a bad escape, unbalanced brackets).
        case malformed

        /// The refusal as the API's error: 400 MALFORMED_BODY, `reasons` saying which rule, `field` the key.
        var error: LatchError {
            switch self {
            case .notUTF8: LatchError(.malformedBody, reasons: ["not_utf8"])
            case .duplicateKey(let path): LatchError(.malformedBody, field: path, reasons: ["duplicate_key"])
            case .tooDeep: LatchError(.malformedBody, reasons: ["too_deep"])
            case .malformed: LatchError(.malformedBody)
            }
        }
    }

    /// How deep objects and arrays may nest (Latch's deepest body, a WebAuthn credential, nests 4).
    static let maximumDepth = 32

    /// Why `bytes` may not be decoded, or nil when they may.
    static func refusal(of bytes: some Collection<UInt8>) -> Refusal? {
        // A NUL byte never appears in UTF-8 JSON (control characters are escaped in strings); it is in
        // every UTF-16 or UTF-32 text of ASCII characters, which is what `JSONDecoder` would transcode.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.contains(0) { return .notUTF8 }
        guard String(validating: bytes, as: UTF8.self) != nil else { return .notUTF8 }
        var scanner = Scanner()
        for byte in bytes {
            if let refusal = scanner.consume(byte) { return refusal }
        }
        return scanner.finish()
    }

    /// The scan's state: where it is in the text, and the keys seen in each open object.
    private struct Scanner {
        /// An open object or array.
        private struct Container {
            let isObject: Bool
            /// The keys this object has named so far.
            var keys: Set<String> = []
            /// The key whose value is being read (for the path of a duplicate inside it).
            var currentKey: String?
            /// In an object: whether the next string is a key (after `{` or `,`).
            var expectsKey: Bool
        }

        /// Where in a string the scan is.
        private enum StringState {
            /// Outside any string.
            case outside
            /// Inside a string; `escaped`: the previous byte was an unescaped backslash.
            case inside(escaped: Bool)
            /// Inside a `\u` escape, with this many hex digits read and their value so far.
            case unicode(digits: Int, value: UInt32)
        }

        private var stack: [Container] = []
        private var string = StringState.outside
        /// The string being read is a key: its bytes (escapes resolved) are collected here.
        private var isKey = false
        private var key: [UInt8] = []
        /// A high surrogate from a `\u` escape that waits for its low half.
        private var pendingHighSurrogate: UInt32?

        mutating func consume(_ byte: UInt8) -> Refusal? {
            switch string {
            case .outside: return structural(byte)
            case .inside(let escaped): return escaped ? escape(byte) : inString(byte)
            case .unicode(let digits, let value): return unicodeDigit(byte, digits: digits, value: value)
            }
        }

        mutating func finish() -> Refusal? {
            guard case .outside = string, stack.isEmpty else { return .malformed }
            return nil
        }

        private mutating func structural(_ byte: UInt8) -> Refusal? {
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard stack.count < maximumDepth else { return .tooDeep }
                let isObject = byte == UInt8(ascii: "{")
                stack.append(Container(isObject: isObject, expectsKey: isObject))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let top = stack.popLast(), top.isObject == (byte == UInt8(ascii: "}")) else { return .malformed }
            case UInt8(ascii: ","):
                if let top = stack.indices.last, stack[top].isObject {
                    stack[top].expectsKey = true
                    stack[top].currentKey = nil
                }
            case UInt8(ascii: "\""):
                string = .inside(escaped: false)
                if let top = stack.indices.last, stack[top].isObject, stack[top].expectsKey {
                    isKey = true
                    key.removeAll(keepingCapacity: true)
                }
            default:
                break // `:`, whitespace, numbers and literals: the decoder checks them.
            }
            return nil
        }

        private mutating func inString(_ byte: UInt8) -> Refusal? {
            switch byte {
            case UInt8(ascii: "\\"):
                string = .inside(escaped: true)
            case UInt8(ascii: "\""):
                guard pendingHighSurrogate == nil else { return .malformed }
                string = .outside
                if isKey { return keyEnded() }
            default:
                guard pendingHighSurrogate == nil else { return .malformed }
                if isKey { key.append(byte) }
            }
            return nil
        }

        private mutating func escape(_ byte: UInt8) -> Refusal? {
            let resolved: UInt8
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): resolved = byte
            case UInt8(ascii: "b"): resolved = 0x08
            case UInt8(ascii: "f"): resolved = 0x0C
            case UInt8(ascii: "n"): resolved = 0x0A
            case UInt8(ascii: "r"): resolved = 0x0D
            case UInt8(ascii: "t"): resolved = 0x09
            case UInt8(ascii: "u"):
                string = .unicode(digits: 0, value: 0)
                return nil
            default: return .malformed
            }
            guard pendingHighSurrogate == nil else { return .malformed }
            if isKey { key.append(resolved) }
            string = .inside(escaped: false)
            return nil
        }

        private mutating func unicodeDigit(_ byte: UInt8, digits: Int, value: UInt32) -> Refusal? {
            guard let digit = Hex.value(of: byte).map(UInt32.init) else { return .malformed }
            let value = value << 4 | digit
            guard digits == 3 else {
                string = .unicode(digits: digits + 1, value: value)
                return nil
            }
            string = .inside(escaped: false)
            switch (pendingHighSurrogate, value) {
            case (nil, 0xD800...0xDBFF):
                pendingHighSurrogate = value
                return nil
            case (let high?, 0xDC00...0xDFFF):
                pendingHighSurrogate = nil
                return appendToKey(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
            case (nil, 0xDC00...0xDFFF), (.some, _):
                return .malformed // a surrogate without its other half
            case (nil, _):
                return appendToKey(value)
            }
        }

        private mutating func appendToKey(_ scalar: UInt32) -> Refusal? {
            guard let scalar = Unicode.Scalar(scalar) else { return .malformed }
            if isKey, let encoded = UTF8.encode(scalar) { key.append(contentsOf: encoded) }
            return nil
        }

        private mutating func keyEnded() -> Refusal? {
            isKey = false
            let top = stack.count - 1
            let name = String(decoding: key, as: UTF8.self)
            stack[top].expectsKey = false
            guard stack[top].keys.insert(name).inserted else { return .duplicateKey(path(to: name)) }
            stack[top].currentKey = name
            return nil
        }

        /// `outer.inner.name`: the keys of the open objects down to `name` (arrays add nothing).
        private func path(to name: String) -> String {
            (stack.dropLast().compactMap(\.currentKey) + [name]).joined(separator: ".")
        }
    }
}
