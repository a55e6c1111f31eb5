/// Why an imported password hash is refused (issue 45 §2): the import report gives `reason` with the line.
enum ImportedHashRefusal: Error, Equatable, Sendable {
    /// Not a format latchd reads.
    case unknownFormat
    /// A known format whose fields do not parse: bad base64 or hex, a missing parameter, a wrong length.
    case malformed(String)
    /// A cost over its documented cap (`ImportedHashCaps`), so a sign-in against it cannot be a denial of service.
    case overCap(parameter: String, value: Int, cap: Int)
    /// Unsalted or salted MD5, SHA-1 or SHA-256 without `LATCH_IMPORT_LEGACY_HASHES=1`.
    case legacyNotAllowed

    /// The stable code of the report (`refused[].reason`).
    var reason: String {
        switch self {
        case .unknownFormat: "unknown_hash_format"
        case .malformed: "malformed_hash"
        case .overCap: "hash_cost_over_cap"
        case .legacyNotAllowed: "legacy_hash_not_allowed"
        }
    }

    /// A sentence for the operator, without the hash itself.
    var detail: String {
        switch self {
        case .unknownFormat: "the password hash is in no format latchd reads"
        case .malformed(let what): "the password hash does not parse: \(what)"
        case .overCap(let parameter, let value, let cap): "the hash's \(parameter) is \(value), over the cap of \(cap)"
        case .legacyNotAllowed: "MD5, SHA-1 and SHA-256 hashes are imported only with LATCH_IMPORT_LEGACY_HASHES=1"
        }
    }
}
