import Foundation
import LatchCore

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
        guard let bytes = Base64URL.decode(part) else { throw JWTPartsError.notBase64 }
        return Data(bytes)
    }

    static func encode(_ data: Data) -> String {
        Base64URL.encode(data)
    }

    enum JWTPartsError: Error { case notCompact, notBase64 }
}
