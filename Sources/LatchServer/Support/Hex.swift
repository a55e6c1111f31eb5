import Foundation

/// Lower-case hexadecimal, written directly (token hashes are computed on every refresh, and
/// `String(format:)` per byte cost about 5 % of latchd's CPU there).
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Data {
    /// Lower-case hexadecimal.
    var hex: String { Hex.encode(self) }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal.
    var hex: String { Hex.encode(self) }
}
