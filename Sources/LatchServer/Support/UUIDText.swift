import Foundation
import LatchCore

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
                    if dashPrecedes(position) {
                        guard utf8[index] == UInt8(ascii: "-") else { return false }
                        index += 1
                    }
                    guard let high = Hex.value(of: utf8[index]), let low = Hex.value(of: utf8[index + 1]) else {
                        return false
                    }
                    bytes[position] = high << 4 | low
                    index += 2
                }
                return true
            }
            return parsed ? UUID(uuid: value) : nil
        }
    }

    /// Whether the text has a dash before the digits of byte `position` (8-4-4-4-12).
    private static func dashPrecedes(_ position: Int) -> Bool {
        position == 4 || position == 6 || position == 8 || position == 10
    }

    private static func text(_ uuid: UUID, digits: [UInt8]) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var index = 0
                for (position, byte) in bytes.enumerated() {
                    if dashPrecedes(position) {
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
