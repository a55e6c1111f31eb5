/// Which App Attest environment an attested key comes from (`LATCH_APP_ATTEST_ENVIRONMENT`): the
/// authenticator data's `aaguid` says it, and latchd accepts only the configured one.
public enum AppAttestEnvironment: String, Sendable, Codable, CaseIterable {
    /// Apps signed for the App Store, TestFlight or enterprise distribution.
    case production
    /// Apps signed for development (the `com.apple.developer.devicecheck.appattest-environment` entitlement).
    case development

    /// The 16-byte `aaguid` of this environment: `appattest` and seven zero bytes, or `appattestdevelop`.
    public var aaguid: [UInt8] {
        switch self {
        case .production: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        case .development: Array("appattestdevelop".utf8)
        }
    }
}
