import Foundation
import Logging
import NIOCore

/// What the Apple, WeChat and phone sign-ins use, made once with the `LatchApplication`. Apple and WeChat are
/// nil when not configured.
public struct IdentityServices: Sendable {
    let apple: AppleIdentityVerifier?
    /// Apple's token and revoke endpoints; nil unless Apple and its team key are configured.
    let appleTokens: AppleTokenEndpoint?
    let wechat: WeChatOAuth?
    let smsCodes: SMSCodeStore

    /// How many times Apple's key set was fetched (for tests of the cache and its rate limit).
    public var appleKeyFetches: Int {
        get async { await apple?.keySet.fetchCount ?? 0 }
    }

    /// The services `config` asks for.
    static func make(_ config: LatchConfig, logger: Logger) -> IdentityServices {
        let http = OutboundHTTP.shared
        let timeout = TimeAmount.seconds(config.providerTimeoutSeconds)
        return IdentityServices(
            apple: config.signInProviders.apple.map {
                AppleIdentityVerifier(
                    clientIDs: $0.clientIDs,
                    keySet: AppleKeySet(url: $0.jwksURL, http: http, fetchTimeout: timeout),
                    requireNonce: $0.requireNonce)
            },
            appleTokens: config.signInProviders.apple.flatMap { apple in
                apple.teamKey.map {
                    AppleTokenEndpoint(
                        teamKey: $0, tokenURL: apple.tokenURL, revokeURL: apple.revokeURL, http: http,
                        logger: logger, timeout: timeout)
                }
            },
            wechat: config.signInProviders.wechat.map { WeChatOAuth(settings: $0, http: http, timeout: timeout) },
            smsCodes: SMSCodeStore(secrets: SecretBox(secretKey: config.secretKey)))
    }
}
