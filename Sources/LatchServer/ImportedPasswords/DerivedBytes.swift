/// Comparison of a derived hash with the stored one (issue 45 §2).
enum DerivedBytes {
    /// Whether `a` and `b` are the same bytes, in a time that depends on their lengths only.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
