import Foundation

/// The decoded header and claims of a compact JWT, read without verifying (for assertions).
struct JWTParts {
    let header: [String: Any]
    let claims: [String: Any]
    /// The raw JSON of the claims, to check number formatting.
    let claimsJSON: String

    init(_ token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { throw JWTPartsError.notCompact }
        let headerData = try Self.decode(parts[0]), claimsData = try Self.decode(parts[1])
        header = (try JSONSerialization.jsonObject(with: headerData)) as? [String: Any] ?? [:]
        claims = (try JSONSerialization.jsonObject(with: claimsData)) as? [String: Any] ?? [:]
        claimsJSON = String(decoding: claimsData, as: UTF8.self)
    }

    static func decode(_ part: String) throws -> Data {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { throw JWTPartsError.notBase64 }
        return data
    }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    enum JWTPartsError: Error { case notCompact, notBase64 }
}
