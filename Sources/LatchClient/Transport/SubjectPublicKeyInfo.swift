import Foundation

/// Reads the SubjectPublicKeyInfo out of a DER X.509 certificate, so that the Apple transport can hash
/// what the system hands it (`SecCertificateCopyData`) with code tested everywhere.
///
/// ```
/// Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signature }
/// TBSCertificate ::= SEQUENCE { [0] version OPTIONAL, serialNumber, signature, issuer, validity,
///                               subject, subjectPublicKeyInfo, … }
/// ```
enum SubjectPublicKeyInfo {
    /// The DER SubjectPublicKeyInfo (tag and length included), or nil when `certificate` is not a
    /// well-formed X.509 certificate.
    static func derFromCertificate(_ certificate: Data) -> Data? {
        let bytes = [UInt8](certificate)
        guard let outer = element(in: bytes, at: 0), outer.tag == sequence, outer.end == bytes.count,
            let tbs = element(in: bytes, at: outer.contentStart), tbs.tag == sequence
        else { return nil }
        var fields: [Element] = []
        var offset = tbs.contentStart
        while offset < tbs.end, fields.count < 8 {
            guard let field = element(in: bytes, at: offset), field.end <= tbs.end else { return nil }
            fields.append(field)
            offset = field.end
        }
        let first = fields.first?.tag == explicitVersion ? 1 : 0
        let index = first + 5
        guard fields.count > index, fields[index].tag == sequence else { return nil }
        return Data(bytes[fields[index].start..<fields[index].end])
    }

    private static let sequence: UInt8 = 0x30
    private static let explicitVersion: UInt8 = 0xA0

    private struct Element {
        var tag: UInt8
        var start: Int
        var contentStart: Int
        var end: Int
    }

    /// The DER element starting at `offset` (single-byte tags, definite lengths up to 4 bytes).
    private static func element(in bytes: [UInt8], at offset: Int) -> Element? {
        guard offset + 2 <= bytes.count else { return nil }
        let tag = bytes[offset]
        // Multi-byte tags (low five bits all set) do not occur in the fields read here.
        guard tag & 0x1F != 0x1F else { return nil }
        var cursor = offset + 1
        let first = bytes[cursor]
        cursor += 1
        var length = 0
        if first & 0x80 == 0 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard (1...4).contains(count), cursor + count <= bytes.count else { return nil }
            for byte in bytes[cursor..<cursor + count] { length = length << 8 | Int(byte) }
            cursor += count
        }
        guard length <= bytes.count - cursor else { return nil }
        return Element(tag: tag, start: offset, contentStart: cursor, end: cursor + length)
    }
}
