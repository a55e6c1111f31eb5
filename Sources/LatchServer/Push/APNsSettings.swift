import Crypto

/// Approval pushes over APNs (issue 43 §2), from `LATCH_APNS_*` (`LatchConfig.readAPNs`); nil (the
/// default): no push is sent, and `pushApproval` queues none.
public struct APNsSettings: Sendable {
    /// The 10-character Key ID of the `.p8` key (the provider token's header `kid`).
    public var keyID: String
    /// The developer team (the provider token's `iss`).
    public var teamID: String
    /// The P-256 private key of the `.p8` file Apple gave.
    public var privateKey: P256.Signing.PrivateKey
    /// The app's bundle id (`apns-topic`).
    public var topic: String
    /// `host[:port]` for `production` device tokens.
    public var host = APNsSettings.productionHost
    /// `host[:port]` for `development` device tokens.
    public var sandboxHost = APNsSettings.sandboxHost
    /// PEM certificates trusted besides the system's (`LATCH_APNS_CA_FILE`; tests' stand-in).
    public var extraTrustRootsPEM: String?

    public static let productionHost = "api.push.apple.com"
    public static let sandboxHost = "api.sandbox.push.apple.com"

    public init(keyID: String, teamID: String, privateKey: P256.Signing.PrivateKey, topic: String) {
        self.keyID = keyID
        self.teamID = teamID
        self.privateKey = privateKey
        self.topic = topic
    }

    /// The host that takes tokens of `environment`.
    func host(for environment: PushEnvironment) -> String {
        switch environment {
        case .production: host
        case .development: sandboxHost
        }
    }
}
