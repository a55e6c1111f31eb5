/// The COSE signature algorithms a passkey may use (IANA "COSE Algorithms").
public enum COSEAlgorithm: Int, Sendable, Codable, CaseIterable {
    /// ECDSA with P-256 and SHA-256: every platform authenticator.
    case es256 = -7
    /// RSASSA-PKCS1-v1_5 with SHA-256: Windows Hello.
    case rs256 = -257
}
