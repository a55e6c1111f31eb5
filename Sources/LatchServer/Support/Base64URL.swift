import Foundation

extension Data {
    /// Unpadded base64url (RFC 4648 §5).
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Lower-case hexadecimal.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

extension Sequence where Element == UInt8 {
    var hex: String { Data(self).hex }
}
