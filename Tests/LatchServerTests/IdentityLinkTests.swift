import Foundation
import LatchCore
import LatchServer
import Testing

/// C1: one account, several ways to sign in; linked and unlinked while signed in.
@Suite("Identities (C1)")
struct IdentityLinkTests {
    static func link(_ server: TestServer, _ body: [String: Any], bearer: String) async throws -> TestResponse {
        try await server.send(.POST, "/v1/me/identities", json: body, bearer: bearer)
    }

    static func providers(_ answer: TestResponse) -> [String] {
        (answer.json["identities"] as? [[String: Any]] ?? []).compactMap { $0["provider"] as? String }
    }

    @Test("C1 an email account links Apple, WeChat and a phone, lists them in /v1/me, and signs in with each", arguments: TestDatabase.all)
    func C1_linkIdentitiesAndListThem(database: TestDatabase) async throws {
        try await withProviders(database) { server, providers in
            let alice = try await server.signUp()
            let key = try AppleTestKey(kid: "apple-1")
            providers.publish([key])
            let appleToken = try await key.identityToken(subject: "apple-alice", expires: server.clock.now + 600)
            providers.issueWeChatCode("LINK", for: .init(openid: "o-alice", unionid: "u-alice", nickname: "Alice"))
            providers.issueWeChatCode("SIGNIN", for: .init(openid: "o-alice", unionid: "u-alice", nickname: "Alice"))
            _ = try await PhoneSignInTests.requestCode(server)
            let code = try await PhoneSignInTests.textedCode(server)

            let apple = try await Self.link(server, ["provider": "apple", "identity_token": appleToken], bearer: alice.accessToken)
            let wechat = try await Self.link(server, ["provider": "wechat", "code": "LINK"], bearer: alice.accessToken)
            let phone = try await Self.link(
                server, ["provider": "phone", "phone": PhoneSignInTests.phone, "code": code], bearer: alice.accessToken)
            let me = try await server.send(.GET, "/v1/me", bearer: alice.accessToken)

            #expect(apple.status == 201, "\(apple.text)")
            #expect(wechat.status == 201, "\(wechat.text)")
            #expect(phone.status == 201, "\(phone.text)")
            #expect(Self.providers(me).first == "email")
            #expect(Set(Self.providers(me)) == ["email", "apple", "wechat", "phone"])
            #expect(me.json["email"] as? String == "alice@example.com", "the existing fields stay")
            let viaApple = try await AppleSignInTests.appleSignIn(server, appleToken)
            let viaWeChat = try await WeChatSignInTests.wechatSignIn(server, code: "SIGNIN")
            #expect(try viaApple.decode(TokenResponse.self).user.id == alice.user.id)
            #expect(try viaWeChat.decode(TokenResponse.self).user.id == alice.user.id)
            let events = try await server.send(.GET, "/v1/security-events", bearer: alice.accessToken).jsonArray
            #expect(events.filter { $0["type"] as? String == "identity_linked" }.count == 3)
        }
    }

    @Test("C1 an identity of another account, or a second one of a provider, cannot be linked", arguments: TestDatabase.all)
    func C1_linkConflictsAreRefused(database: TestDatabase) async throws {
        try await withProviders(database) { server, providers in
            let key = try AppleTestKey(kid: "apple-1")
            providers.publish([key])
            let bob = try await AppleSignInTests.appleSignIn(
                server, try await key.identityToken(subject: "apple-bob", expires: server.clock.now + 600)
            ).decode(TokenResponse.self)
            let alice = try await server.signUp()

            let taken = try await Self.link(
                server, ["provider": "apple", "identity_token": try await key.identityToken(subject: "apple-bob", expires: server.clock.now + 600)],
                bearer: alice.accessToken)
            let second = try await Self.link(
                server, ["provider": "apple", "identity_token": try await key.identityToken(subject: "apple-bob-2", expires: server.clock.now + 600)],
                bearer: bob.accessToken)
            let unknownProvider = try await Self.link(server, ["provider": "github"], bearer: alice.accessToken)

            #expect(taken.status == 409 && taken.json["reasons"] as? [String] == ["identity_in_use"])
            #expect(second.status == 409 && second.json["reasons"] as? [String] == ["provider_already_linked"])
            #expect(unknownProvider.status == 422 && unknownProvider.json["field"] as? String == "provider")
        }
    }

    @Test("C1 unlinking removes a way to sign in, but never the last one", arguments: TestDatabase.all)
    func C1_unlinkRefusesTheLastWay(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            _ = try await PhoneSignInTests.requestCode(server)
            let code = try await PhoneSignInTests.textedCode(server)
            #expect(try await Self.link(
                server, ["provider": "phone", "phone": PhoneSignInTests.phone, "code": code], bearer: alice.accessToken).status == 201)

            let email = try await server.send(.DELETE, "/v1/me/identities/email", bearer: alice.accessToken)
            let last = try await server.send(.DELETE, "/v1/me/identities/phone", bearer: alice.accessToken)
            let notLinked = try await server.send(.DELETE, "/v1/me/identities/apple", bearer: alice.accessToken)
            let passwordSignIn = try await server.signIn()

            #expect(email.status == 200 && Self.providers(email) == ["phone"], "\(email.text)")
            #expect(email.json["email"] == nil)
            #expect(last.status == 409 && last.errorCode == "CONFLICT" && last.json["reasons"] as? [String] == ["last_sign_in_method"])
            #expect(notLinked.status == 404)
            #expect(passwordSignIn.status == 401, "the email and its password are gone")
            server.clock.advance(by: 60)
            _ = try await PhoneSignInTests.requestCode(server)
            let viaPhone = try await PhoneSignInTests.smsSignIn(server, code: try await PhoneSignInTests.textedCode(server))
            #expect(try viaPhone.decode(TokenResponse.self).user.id == alice.user.id)
        }
    }

    @Test("C1 linking needs a sign-in within 10 minutes (or a verification token)", arguments: TestDatabase.all)
    func C1_linkNeedsRecentSignIn(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            server.clock.advance(by: 601)
            _ = try await PhoneSignInTests.requestCode(server)
            let code = try await PhoneSignInTests.textedCode(server)

            let stale = try await Self.link(
                server, ["provider": "phone", "phone": PhoneSignInTests.phone, "code": code], bearer: alice.accessToken)
            let unlink = try await server.send(.DELETE, "/v1/me/identities/email", bearer: alice.accessToken)

            #expect(stale.status == 403 && stale.errorCode == "VERIFICATION_REQUIRED")
            #expect(unlink.status == 403 && unlink.errorCode == "VERIFICATION_REQUIRED")
        }
    }
}
