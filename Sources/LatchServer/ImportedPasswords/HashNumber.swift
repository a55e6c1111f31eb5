/// The decimal numbers in imported password hashes (issue 45 §2): digits only, no sign, no overflow.
enum HashNumber {
    /// The value of `text`, or nil when it is not plain decimal digits or does not fit in an `Int`.
    static func parse(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int(text)
    }
}
