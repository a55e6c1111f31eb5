import Foundation
import LatchTestSupport
import Testing

@testable import LatchClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 11 §3: what an app needs to add the SDK — the device's language, errors it can show and
/// retry, and valid access tokens for its own backend. (Only `import LatchClient` above: LatchCore's
/// types, such as `LatchLanguage` and `LatchErrorCode`, come with it.)
@Suite("An app can add it (issue 11 §3)")
struct AppIntegrationTests {
    @Test("11 the SDK language follows the device's preferred languages unless set")
    func test_11_3_languageFollowsPreferredLanguages() {
        #expect(LatchLanguage(preferredLanguages: ["zh-Hans-CN", "en-US"]) == .zhHans)
        #expect(LatchLanguage(preferredLanguages: ["fr-FR", "zh-Hant-TW", "en"]) == .zhHans)
        #expect(LatchLanguage(preferredLanguages: ["en-GB", "zh-Hans"]) == .en)
        #expect(LatchLanguage(preferredLanguages: ["de-DE", "fr"]) == .en)
        #expect(LatchLanguage(preferredLanguages: []) == .en)

        let server = SessionFakeServer()
        let device = LatchClient(
            serverURL: URL(string: "https://auth.example.com")!, vault: InMemoryVault(), transport: server)
        let chosen = LatchClient(
            serverURL: URL(string: "https://auth.example.com")!, vault: InMemoryVault(), transport: server,
            acceptLanguage: "zh-CN")
        #expect(device.language == LatchLanguage(preferredLanguages: Locale.preferredLanguages))
        #expect(device.api.acceptLanguage == device.language.rawValue)
        #expect(chosen.language == .zhHans)
        #expect(chosen.api.acceptLanguage == "zh-CN")
    }

    @Test("11 LatchClientError is a LocalizedError: the server's message, retryable or not, lockedUntil and retryAfter")
    func test_11_3_errorsAreLocalizedAndTellWhetherToRetry() {
        let lockedUntil = Date(timeIntervalSince1970: 1_800_000_300)
        let locked = LatchClientError.server(
            LatchServerError(status: 423, rawCode: "AUTH_002", message: "账号已被锁定", lockedUntil: lockedUntil))
        let limited = LatchClientError.server(
            LatchServerError(status: 429, rawCode: "RATE_LIMITED", message: "Too many requests.", retryAfter: 30))
        let wrong = LatchClientError.server(
            LatchServerError(status: 401, rawCode: "AUTH_001", message: "Wrong email or password."))
        let failing = LatchClientError.server(
            LatchServerError(status: 503, rawCode: "DELIVERY_UNAVAILABLE", message: "busy", retryAfter: 5))

        #expect(locked.localizedDescription == "账号已被锁定")
        #expect(locked.lockedUntil == lockedUntil)
        #expect(!locked.isRetryable)
        #expect(limited.isRetryable && limited.retryAfter == 30)
        #expect(!wrong.isRetryable && wrong.retryAfter == nil && wrong.lockedUntil == nil)
        #expect(failing.isRetryable && failing.retryAfter == 5)
        #expect(LatchClientError.network(URLError(.notConnectedToInternet)).isRetryable)
        #expect(LatchClientError.vaultUnavailable.isRetryable)
        #expect(!LatchClientError.notSignedIn.isRetryable)
        #expect(LatchClientError.unexpected(status: 502).isRetryable)
        #expect(!LatchClientError.unexpected(status: 200).isRetryable)
        #expect(LatchClientError.network(URLError(.timedOut)).message(in: .zhHans) == "网络连接失败，请检查网络后重试")
        #expect(LatchClientError.notSignedIn.message(in: .en) == "Your session has expired. Please sign in again.")
    }

    @Test("11 validAccessToken refreshes a token about to expire; authorize sets the bearer on a URLRequest")
    func test_11_3_validAccessTokenAndAuthorize() async throws {
        let harness = SessionHarness()
        let first = try await harness.signIn(expiresIn: 7200)

        #expect(try await harness.client.validAccessToken() == first.accessToken)
        harness.clock.advance(by: 7200 - 60) // less than 5 minutes left: refreshed first
        let refreshed = try await harness.client.validAccessToken()
        #expect(refreshed != first.accessToken)
        #expect(await harness.server.count("POST", "/v1/token") == 1)

        var request = URLRequest(url: harness.ordersURL)
        try await harness.client.authorize(&request)
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer \(refreshed)")
    }

    @Test("11 validAccessToken without a session throws notSignedIn")
    func test_11_3_validAccessTokenWithoutSession() async {
        let harness = SessionHarness()
        await #expect {
            try await harness.client.validAccessToken()
        } throws: { error in
            guard case LatchClientError.notSignedIn = error else { return false }
            return true
        }
    }
}
