import Foundation

/// Sign in with Apple and WeChat settings (`LATCH_APPLE_*`, `LATCH_WECHAT_*`). A method whose settings
/// are missing is off: its grant answers 422 PROVIDER_NOT_CONFIGURED.
public struct SignInProviders: Sendable {
    /// Sign in with Apple.
    public struct Apple: Sendable {
        /// Accepted `aud` values: the app's bundle id and/or Services ID (`LATCH_APPLE_CLIENT_IDS`).
        public var clientIDs: [String]
        /// Apple's key set (`LATCH_APPLE_JWKS_URL`).
        public var jwksURL: String
        /// Whether every grant must carry the raw `nonce` whose SHA-256 the token holds
        /// (`LATCH_APPLE_REQUIRE_NONCE`, on unless `0`/`false`): a token without one could be replayed
        /// by whoever saw it.
        public var requireNonce: Bool
        /// The team's key that signs the client secret for Apple's token and revoke endpoints; without
        /// it an `authorization_code` is not exchanged and a deletion answers `apple_revocation: "not_possible"`.
        public var teamKey: AppleTeamKey?
        /// Where authorization codes are exchanged (`LATCH_APPLE_TOKEN_URL`).
        public var tokenURL: String
        /// Where refresh tokens are revoked (`LATCH_APPLE_REVOKE_URL`).
        public var revokeURL: String

        public static let defaultJWKSURL = "https://appleid.apple.com/auth/keys"
        public static let defaultTokenURL = "https://appleid.apple.com/auth/token"
        public static let defaultRevokeURL = "https://appleid.apple.com/auth/revoke"

        public init(
            clientIDs: [String], jwksURL: String = Self.defaultJWKSURL, requireNonce: Bool = true,
            teamKey: AppleTeamKey? = nil,
            tokenURL: String = Self.defaultTokenURL, revokeURL: String = Self.defaultRevokeURL
        ) {
            self.clientIDs = clientIDs
            self.jwksURL = jwksURL
            self.requireNonce = requireNonce
            self.teamKey = teamKey
            self.tokenURL = tokenURL
            self.revokeURL = revokeURL
        }
    }

    /// WeChat OAuth (mobile app or website application).
    public struct WeChat: Sendable {
        public var appID: String
        public var appSecret: String
        /// `LATCH_WECHAT_API_BASE`, without a trailing slash.
        public var apiBase: String

        public static let defaultAPIBase = "https://api.weixin.qq.com"

        public init(appID: String, appSecret: String, apiBase: String = Self.defaultAPIBase) {
            self.appID = appID
            self.appSecret = appSecret
            self.apiBase = apiBase.hasSuffix("/") ? String(apiBase.dropLast()) : apiBase
        }
    }

    public var apple: Apple?
    public var wechat: WeChat?

    public init(apple: Apple? = nil, wechat: WeChat? = nil) {
        self.apple = apple
        self.wechat = wechat
    }

    /// Reads the `LATCH_APPLE_*` and `LATCH_WECHAT_*` variables.
    static func fromEnvironment(
        _ environment: [String: String],
        readFile: (String) throws -> String = { try String(contentsOfFile: $0, encoding: .utf8) }
    ) throws -> SignInProviders {
        func value(_ name: String) -> String? {
            guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        func httpURL(_ name: String, _ raw: String) throws -> String {
            guard let url = URL(string: raw), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ConfigurationError(name, "must be an http(s) URL (got \(raw))")
            }
            return raw
        }

        var providers = SignInProviders()
        let clientIDs = (value("LATCH_APPLE_CLIENT_IDS") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let jwksURL = try value("LATCH_APPLE_JWKS_URL").map { try httpURL("LATCH_APPLE_JWKS_URL", $0) }
        let requireNonce: Bool
        switch value("LATCH_APPLE_REQUIRE_NONCE")?.lowercased() {
        case nil, "1", "true", "yes", "on": requireNonce = true
        case "0", "false", "no", "off": requireNonce = false
        case let other?: throw ConfigurationError("LATCH_APPLE_REQUIRE_NONCE", "must be 1 or 0 (got \(other))")
        }
        let teamKey = try AppleTeamKey.fromEnvironment(value, readFile: readFile)
        let tokenURL = try value("LATCH_APPLE_TOKEN_URL").map { try httpURL("LATCH_APPLE_TOKEN_URL", $0) }
        let revokeURL = try value("LATCH_APPLE_REVOKE_URL").map { try httpURL("LATCH_APPLE_REVOKE_URL", $0) }
        if teamKey != nil, clientIDs.isEmpty {
            throw ConfigurationError(
                "LATCH_APPLE_CLIENT_IDS", "is required with LATCH_APPLE_TEAM_ID (the app's bundle id)")
        }
        if !clientIDs.isEmpty {
            providers.apple = Apple(
                clientIDs: clientIDs, jwksURL: jwksURL ?? Apple.defaultJWKSURL, requireNonce: requireNonce,
                teamKey: teamKey,
                tokenURL: tokenURL ?? Apple.defaultTokenURL, revokeURL: revokeURL ?? Apple.defaultRevokeURL)
        }

        let appID = value("LATCH_WECHAT_APP_ID"), appSecret = value("LATCH_WECHAT_APP_SECRET")
        let apiBase = try value("LATCH_WECHAT_API_BASE").map { try httpURL("LATCH_WECHAT_API_BASE", $0) }
        switch (appID, appSecret) {
        case (let appID?, let appSecret?):
            providers.wechat = WeChat(appID: appID, appSecret: appSecret, apiBase: apiBase ?? WeChat.defaultAPIBase)
        case (nil, nil):
            break
        case (nil, _?):
            throw ConfigurationError("LATCH_WECHAT_APP_ID", "is required when LATCH_WECHAT_APP_SECRET is set")
        case (_?, nil):
            throw ConfigurationError("LATCH_WECHAT_APP_SECRET", "is required when LATCH_WECHAT_APP_ID is set")
        }
        return providers
    }
}
