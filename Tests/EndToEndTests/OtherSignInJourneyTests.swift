import Foundation
import LatchClient
import LatchCore
import LatchServer
import NIOCore
import NIOHTTP1
import Testing

/// C1 through the SDK: `requestSMSCode(phone:)` and `signIn(phone:code:)` against a real latchd on
/// loopback (the code read from its development outbox), the Apple and WeChat calls' wiring, and the
/// Apple nonce.
@Suite("SDK: phone, Apple and WeChat sign-in (C1)")
struct OtherSignInJourneyTests {
    @Test("C1 requestSMSCode then signIn(phone:code:) ends signed in, as signIn(email:password:) does")
    func C1_sdkPhoneSignInEndsSignedIn() async throws {
        try await withLiveServer { server in
            let client = server.client()
            let phone = "+8613800138000"

            let accepted = try await client.requestSMSCode(phone: phone)
            let code = try #require(await server.app.latch.outbox?.messages(to: phone).last?.code)
            let user = try await client.signIn(phone: phone, code: code)
            let state = client.currentState
            var tooSoon: LatchClientError?
            do { try await client.requestSMSCode(phone: phone) } catch let error as LatchClientError { tooSoon = error }

            #expect(accepted.expiresIn == 300 && accepted.resendAfter == 60)
            #expect(user.email == nil)
            #expect(state.user?.id == user.id)
            #expect(tooSoon?.code == .rateLimited)
            #expect(tooSoon?.serverError?.retryAfter == 60, "the server's clock stands still")
        }
    }

    @Test(
        "C1 signInWithApple and signInWithWeChat send their grants; a server without them says provider_not_configured")
    func C1_sdkAppleAndWeChatReachTheServer() async throws {
        try await withLiveServer { server in
            let client = server.client()
            var apple: LatchClientError?
            var wechat: LatchClientError?

            do {
                try await client.signInWithApple(
                    identityToken: "a.b.c", nonce: AppleSignInNonce().raw, fullName: "Zhang San")
            } catch let error as LatchClientError { apple = error }
            do { try await client.signInWithWeChat(code: "CODE") } catch let error as LatchClientError {
                wechat = error
            }

            #expect(apple?.code == .validationFailed && apple?.serverError?.reasons == ["provider_not_configured"])
            #expect(wechat?.code == .validationFailed && wechat?.serverError?.reasons == ["provider_not_configured"])
            #expect(client.currentState.user == nil)
        }
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
