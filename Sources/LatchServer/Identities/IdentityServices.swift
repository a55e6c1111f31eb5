import Foundation
import NIOCore
import Vapor

/// What the Apple, WeChat and phone sign-ins use, configured once by `configure(_:_:)`:
/// `app.identityServices`, read as `req.identityServices`. Apple and WeChat are nil when not configured.
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

    /// Sets the services up on `app` (after `app.latch`) and registers their routes.
    static func configure(_ app: Application, _ config: LatchConfig) throws {
        let http = OutboundHTTP.shared
        let timeout = TimeAmount.seconds(config.providerTimeoutSeconds)
        app.identityServices = IdentityServices(
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
                        logger: app.logger, timeout: timeout)
                }
            },
            wechat: config.signInProviders.wechat.map { WeChatOAuth(settings: $0, http: http, timeout: timeout) },
            smsCodes: SMSCodeStore(secrets: SecretBox(secretKey: config.secretKey)))
        try app.register(collection: IdentityRoutes())
    }
}

extension Application {
    private struct IdentityServicesKey: StorageKey { typealias Value = IdentityServices }

    /// The Apple, WeChat and phone sign-in services; set by `configure(_:_:)`.
    public var identityServices: IdentityServices {
        get {
            guard let services = storage[IdentityServicesKey.self] else {
                preconditionFailure("configure(_:_:) sets app.identityServices before any route runs")
            }
            return services
        }
        set { storage[IdentityServicesKey.self] = newValue }
    }
}

extension Request {
    var identityServices: IdentityServices { application.identityServices }
}
