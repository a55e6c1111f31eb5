/// Lower-case hexadecimal, for digests in the signed-message contract.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The two lower-case hex digits of `byte`.
    static func lowercaseBytes(of byte: UInt8) -> [UInt8] {
        [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
    }

    /// `bytes` as lower-case hex, two characters per byte.
    static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        String(decoding: bytes.flatMap(lowercaseBytes(of:)), as: UTF8.self)
    }
}
