import LatchCore

/// Issue 31 §2's settings: `LATCH_APP_ATTEST`, `LATCH_APP_ATTEST_APP_IDS`, `LATCH_APP_ATTEST_ENVIRONMENT`
/// and `LATCH_APP_ATTEST_ROOT_CA_FILE` (read by `LatchConfig.readAppAttest`).
public struct AppAttestSettings: Sendable {
    /// `off` (the default), `optional` or `required`.
    public var mode: AppAttestMode = .off
    /// `TEAMID.bundle.id` of each app whose keys are accepted.
    public var appIDs: [String] = []
    /// The environment whose `aaguid` is accepted (default `production`).
    public var environment: AppAttestEnvironment = .production
    /// The trust roots in PEM; nil: Apple's App Attest root, built in.
    public var rootCertificatesPEM: String?

    public init() {}
}
