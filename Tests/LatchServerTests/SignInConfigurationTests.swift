import Foundation
import LatchServer
import Testing

/// The sign-in methods' configuration contract: `LATCH_APPLE_*`, `LATCH_WECHAT_*`.
@Suite("Configuration: sign-in methods (C1)")
struct SignInConfigurationTests {
    static let base = ["LATCH_SECRET_KEY": Data(repeating: 1, count: 32).base64EncodedString()]

    static func config(_ extra: [String: String]) throws -> LatchConfig {
        try LatchConfig.fromEnvironment(base.merging(extra) { _, new in new })
    }

    @Test("Config Apple and WeChat are off by default; Apple's keys default to appleid.apple.com")
    func C1_signInProvidersDefaults() throws {
        let none = try Self.config([:])
        let apple = try Self.config(["LATCH_APPLE_CLIENT_IDS": " com.example.app , com.example.web ,"])
        let wechat = try Self.config(["LATCH_WECHAT_APP_ID": "wx1", "LATCH_WECHAT_APP_SECRET": "s3cret"])

        #expect(none.signInProviders.apple == nil && none.signInProviders.wechat == nil)
        #expect(apple.signInProviders.apple?.clientIDs == ["com.example.app", "com.example.web"])
        #expect(apple.signInProviders.apple?.jwksURL == "https://appleid.apple.com/auth/keys")
        #expect(wechat.signInProviders.wechat?.apiBase == "https://api.weixin.qq.com")
        #expect(wechat.signInProviders.wechat?.appID == "wx1")
    }

    @Test("Config bad sign-in settings fail with one line naming the variable")
    func C1_badSignInSettingsNameTheVariable() throws {
        #expect(throws: ConfigurationError("LATCH_APPLE_JWKS_URL", "must be an http(s) URL (got ftp://keys)")) {
            try Self.config(["LATCH_APPLE_CLIENT_IDS": "com.example.app", "LATCH_APPLE_JWKS_URL": "ftp://keys"])
        }
        #expect(throws: ConfigurationError("LATCH_WECHAT_APP_SECRET", "is required when LATCH_WECHAT_APP_ID is set")) {
            try Self.config(["LATCH_WECHAT_APP_ID": "wx1"])
        }
        #expect(throws: ConfigurationError("LATCH_WECHAT_APP_ID", "is required when LATCH_WECHAT_APP_SECRET is set")) {
            try Self.config(["LATCH_WECHAT_APP_SECRET": "s"])
        }
        #expect(throws: ConfigurationError("LATCH_WECHAT_API_BASE", "must be an http(s) URL (got not a url)")) {
            try Self.config([
                "LATCH_WECHAT_APP_ID": "wx1", "LATCH_WECHAT_APP_SECRET": "s", "LATCH_WECHAT_API_BASE": "not a url"
            ])
        }
    }
}
