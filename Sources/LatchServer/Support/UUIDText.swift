import Foundation

/// A UUID's canonical text (8-4-4-4-12 hexadecimal digits) written and read directly. Foundation's `uuidString`
/// formats it with `snprintf` on Linux and `UUID(uuidString:)` reads it with `sscanf`; a refresh did that nine
/// times (the token's claims, its answer, its row and its binds; issue 44 §4).
enum UUIDText {
    private static let lower = Array("0123456789abcdef".utf8)
    private static let upper = Array("0123456789ABCDEF".utf8)

    /// `uuid` in lower case, as latchd's wire and tokens spell ids.
    static func lowercase(_ uuid: UUID) -> String { text(uuid, digits: lower) }

    /// `uuid` in upper case, as Fluent's SQLite driver stores ids (Foundation's `uuidString`).
    static func uppercase(_ uuid: UUID) -> String { text(uuid, digits: upper) }

    /// The UUID `text` spells in canonical form, in either case; nil for anything else.
    static func uuid(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &value) { bytes -> Bool in
                var index = 0
                for position in 0..<16 {
                    if dashes.contains(index) {
                        guard utf8[index] == UInt8(ascii: "-") else { return false }
                        index += 1
                    }
                    guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return false }
                    bytes[position] = high << 4 | low
                    index += 2
                }
                return true
            }
            return parsed ? UUID(uuid: value) : nil
        }
    }

    /// Where the text's dashes are.
    private static let dashes: Set<Int> = [8, 13, 18, 23]

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func text(_ uuid: UUID, digits: [UInt8]) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var index = 0
                for (position, byte) in bytes.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        text[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    text[index] = digits[Int(byte >> 4)]
                    text[index + 1] = digits[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }
}
