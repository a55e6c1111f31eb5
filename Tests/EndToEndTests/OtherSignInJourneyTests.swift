import Foundation
import LatchClient
import LatchCore
import LatchServer
import Testing
import Vapor

/// C1 through the SDK: `requestSMSCode(phone:)` and `signIn(phone:code:)` against a real latchd on
/// loopback (the code read from its development outbox), the Apple and WeChat calls' wiring, and the
/// Apple nonce.
@Suite("SDK: phone, Apple and WeChat sign-in (C1)")
struct OtherSignInJourneyTests {
    /// A latchd on a loopback port with the development outbox.
    private static func startServer() async throws -> (Application, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let app = try await Application.make(.testing)
        do {
            let config = LatchConfig(
                database: .sqlite(path: folder.appendingPathComponent("latch.sqlite").path), port: 0,
                issuer: "http://latch.test", secretKey: Data(repeating: 9, count: 32), bcryptCost: 4, logRequests: false)
            try await configure(app, config)
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try #require(app.http.server.shared.localAddress?.port)
            return (app, try #require(URL(string: "http://127.0.0.1:\(port)")))
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    private static func stop(_ app: Application) async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    @Test("C1 requestSMSCode then signIn(phone:code:) ends signed in, as signIn(email:password:) does")
    func C1_sdkPhoneSignInEndsSignedIn() async throws {
        let (app, url) = try await Self.startServer()
        let client = LatchClient(serverURL: url, vault: InMemoryVault())
        let phone = "+8613800138000"

        let accepted = try await client.requestSMSCode(phone: phone)
        let code = try #require(await app.latch.outbox?.messages(to: phone).last?.code)
        let user = try await client.signIn(phone: phone, code: code)
        let state = client.currentState
        var tooSoon: LatchClientError?
        do { try await client.requestSMSCode(phone: phone) } catch let error as LatchClientError { tooSoon = error }
        try await Self.stop(app)

        #expect(accepted.expiresIn == 300 && accepted.resendAfter == 60)
        #expect(user.email == nil)
        #expect(state.user?.id == user.id)
        #expect(tooSoon?.code == .rateLimited)
        #expect((1...60).contains(tooSoon?.serverError?.retryAfter ?? 0), "this server runs on the wall clock")
    }

    @Test("C1 signInWithApple and signInWithWeChat send their grants; a server without them says provider_not_configured")
    func C1_sdkAppleAndWeChatReachTheServer() async throws {
        let (app, url) = try await Self.startServer()
        let client = LatchClient(serverURL: url, vault: InMemoryVault())
        var apple: LatchClientError?
        var wechat: LatchClientError?

        do { try await client.signInWithApple(identityToken: "a.b.c", nonce: AppleSignInNonce().raw, fullName: "Zhang San") } catch let error as LatchClientError { apple = error }
        do { try await client.signInWithWeChat(code: "CODE") } catch let error as LatchClientError { wechat = error }
        try await Self.stop(app)

        #expect(apple?.code == .validationFailed && apple?.serverError?.reasons == ["provider_not_configured"])
        #expect(wechat?.code == .validationFailed && wechat?.serverError?.reasons == ["provider_not_configured"])
        #expect(client.currentState.user == nil)
    }

    @Test("C1 the Apple nonce: 32 random bytes base64url, and the lowercase hex SHA-256 for the Apple request")
    func C1_appleNonceIsRandomAndHashed() {
        let first = AppleSignInNonce(), second = AppleSignInNonce()
        let known = AppleSignInNonce(raw: "abc")

        #expect(first.raw.count == 43 && first != second)
        #expect(known.sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(first.sha256.count == 64 && first.sha256 == first.sha256.lowercased())
    }
}
