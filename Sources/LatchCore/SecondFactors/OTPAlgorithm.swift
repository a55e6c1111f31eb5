import Crypto

/// The HMAC hash behind an HOTP/TOTP code (RFC 6238 §1.2). Authenticator apps expect `.sha1`;
/// the others exist for the RFC 6238 Appendix B vectors and for apps that support them.
///
///     OTPAlgorithm.sha1.rawValue // "SHA1", as written in an otpauth:// URI
public enum OTPAlgorithm: String, Sendable, Equatable, CaseIterable {
    case sha1 = "SHA1"
    case sha256 = "SHA256"
    case sha512 = "SHA512"

    /// HMAC of `message` under `key`.
    func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        let key = SymmetricKey(data: key)
        switch self {
        case .sha1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
        case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
        case .sha512: return Array(HMAC<SHA512>.authenticationCode(for: message, using: key))
        }
    }
}
