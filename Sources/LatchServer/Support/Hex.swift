import Foundation

extension Data {
    /// Lower-case hexadecimal.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal.
    var hex: String { Data(self).hex }
}
