import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// C1: one account, several ways to sign in; linked and unlinked while signed in.
@Suite("Identities (C1)")
struct IdentityLinkTests {
    static func link(_ server: TestServer, _ body: [String: Any], bearer: String) async throws -> TestResponse {
        try await server.send(.POST, "/v1/me/identities", json: body, bearer: bearer)
    }

    /// The providers of a profile answer's `identities` (`GET /v1/me`, and a link's or unlink's 200/201).
    static func providers(_ answer: TestResponse) -> [String] {
        ((try? answer.decode(UserInfo.self))?.identities ?? []).map(\.provider)
    }

    @Test(
        "C1 an email account links Apple, WeChat and a phone, lists them in /v1/me, and signs in with each",
        arguments: TestDatabase.all)
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

            let apple = try await Self.link(
                server, ["provider": "apple", "identity_token": appleToken, "nonce": AppleTestKey.defaultNonce],
                bearer: alice.accessToken)
            let wechat = try await Self.link(server, ["provider": "wechat", "code": "LINK"], bearer: alice.accessToken)
            let phone = try await Self.link(
                server, ["provider": "phone", "phone": PhoneSignInTests.phone, "code": code], bearer: alice.accessToken)
            let me = try await server.send(.GET, "/v1/me", bearer: alice.accessToken)

            #expect(apple.status == 201, "\(apple.text)")
            #expect(wechat.status == 201, "\(wechat.text)")
            #expect(phone.status == 201, "\(phone.text)")
            #expect(Self.providers(me).first == "email")
            #expect(Set(Self.providers(me)) == ["email", "apple", "wechat", "phone"])
            #expect((try? me.decode(UserInfo.self))?.email == "alice@example.com", "the existing fields stay")
            // From Alice's own (known) device: another device would be screened (C8). A new Apple token:
            // the one that linked has been used.
            let viaApple = try await AppleSignInTests.appleSignIn(
                server, try await key.identityToken(subject: "apple-alice", expires: server.clock.now + 600),
                device: TestServer.testDevice)
            let viaWeChat = try await WeChatSignInTests.wechatSignIn(
                server, code: "SIGNIN", device: TestServer.testDevice)
            #expect(try viaApple.decode(TokenResponse.self).user.id == alice.user.id)
            #expect(try viaWeChat.decode(TokenResponse.self).user.id == alice.user.id)
            let events = try await server.send(.GET, "/v1/security-events", bearer: alice.accessToken).securityEvents
            #expect(events.filter { $0.type == "identity_linked" }.count == 3)
        }
    }

    @Test(
        "C1 a phone account adds an email and password: a mailed code, then the address is verified and signs in",
        arguments: TestDatabase.all)
    func C1_phoneAccountLinksEmail(database: TestDatabase) async throws {
        try await withServer(database) { server in
            _ = try await PhoneSignInTests.requestCode(server)
            let phoneUser = try await PhoneSignInTests.smsSignIn(
                server, code: try await PhoneSignInTests.textedCode(server)
            )
            .decode(TokenResponse.self)
            let bearer = phoneUser.accessToken
            let start: [String: Any] = [
                "provider": "email", "email": "Carol@Example.com ", "password": "Correct-Horse-9"
            ]

            let weak = try await Self.link(
                server, ["provider": "email", "email": "carol@example.com", "password": "abcdefgh"], bearer: bearer)
            let sent = try await Self.link(server, start, bearer: bearer)
            let code = try await server.latestCode(to: "carol@example.com")
            let wrong = try await Self.link(
                server,
                ["provider": "email", "email": "carol@example.com", "code": NewDeviceTests.code(differentFrom: code)],
                bearer: bearer)
            let linked = try await Self.link(
                server, ["provider": "email", "email": "carol@example.com", "code": code], bearer: bearer)
            let again = try await Self.link(server, start, bearer: bearer)
            let byPassword = try await server.signIn("carol@example.com", password: "Correct-Horse-9")

            #expect(weak.status == 422 && weak.errorBody?.field == "password", "\(weak.text)")
            #expect(
                sent.status == 202 && (try? sent.decode(EmailLinkCodeSent.self))?.expiresIn == 600, "\(sent.text)")
            #expect(
                wrong.status == 400 && wrong.errorCode == "AUTH_003" && wrong.errorBody?.attemptsRemaining == 4,
                "\(wrong.text)")
            #expect(linked.status == 201, "\(linked.text)")
            let profile = try? linked.decode(UserInfo.self)
            #expect(profile?.email == "carol@example.com" && profile?.emailVerified == true)
            #expect(Set(Self.providers(linked)) == ["email", "phone"])
            #expect(again.status == 409, "an account has one email: \(again.text)")
            #expect(
                byPassword.status == 200
                    || (byPassword.status == 403 && byPassword.errorCode == "VERIFICATION_REQUIRED"),
                "the password is the account's now: \(byPassword.text)")
        }
    }

    @Test(
        "C1 linking an address another account has looks the same, mails that owner a notice and no code, and cannot complete",
        arguments: TestDatabase.all)
    func C1_emailOfAnotherAccountCannotBeLinked(database: TestDatabase) async throws {
        try await withServer(database) { server in
            _ = try await server.signUp()
            _ = try await PhoneSignInTests.requestCode(server)
            let bearer = try await PhoneSignInTests.smsSignIn(
                server, code: try await PhoneSignInTests.textedCode(server)
            )
            .decode(TokenResponse.self).accessToken
            let mailsBefore = await server.mails(to: "alice@example.com").count

            let sent = try await Self.link(
                server, ["provider": "email", "email": "alice@example.com", "password": "Correct-Horse-9"],
                bearer: bearer)
            let newMails = await server.mails(to: "alice@example.com").dropFirst(mailsBefore)
            let guessed = try await Self.link(
                server, ["provider": "email", "email": "alice@example.com", "code": "123456"], bearer: bearer)
            server.clock.advance(by: 601)
            let late = try await Self.link(
                server, ["provider": "email", "email": "bob@example.com", "password": "Correct-Horse-9"], bearer: bearer
            )

            #expect(sent.status == 202, "the same answer as for a free address: \(sent.text)")
            #expect(
                newMails.count == 1 && newMails.allSatisfy { $0.code == nil },
                "a notice, no code: \(newMails.map(\.subject))")
            #expect(guessed.status == 400 && guessed.errorCode == "AUTH_003", "\(guessed.text)")
            #expect(
                late.status == 403 && late.errorCode == "VERIFICATION_REQUIRED",
                "a sign-in within 10 minutes or a proof: \(late.text)")
        }
    }

    @Test(
        "C1 an identity of another account, or a second one of a provider, cannot be linked",
        arguments: TestDatabase.all)
    func C1_linkConflictsAreRefused(database: TestDatabase) async throws {
        try await withProviders(database) { server, providers in
            let key = try AppleTestKey(kid: "apple-1")
            providers.publish([key])
            let bob = try await AppleSignInTests.appleSignIn(
                server, try await key.identityToken(subject: "apple-bob", expires: server.clock.now + 600)
            ).decode(TokenResponse.self)
            let alice = try await server.signUp()

            let taken = try await Self.link(
                server,
                [
                    "provider": "apple",
                    "identity_token": try await key.identityToken(
                        subject: "apple-bob", expires: server.clock.now + 600),
                    "nonce": AppleTestKey.defaultNonce
                ],
                bearer: alice.accessToken)
            let second = try await Self.link(
                server,
                [
                    "provider": "apple",
                    "identity_token": try await key.identityToken(
                        subject: "apple-bob-2", expires: server.clock.now + 600),
                    "nonce": AppleTestKey.defaultNonce
                ],
                bearer: bob.accessToken)
            let unknownProvider = try await Self.link(server, ["provider": "github"], bearer: alice.accessToken)

            #expect(taken.status == 409 && taken.errorBody?.reasons == ["identity_in_use"])
            #expect(second.status == 409 && second.errorBody?.reasons == ["provider_already_linked"])
            #expect(unknownProvider.status == 422 && unknownProvider.errorBody?.field == "provider")
        }
    }

    @Test("C1 unlinking removes a way to sign in, but never the last one", arguments: TestDatabase.all)
    func C1_unlinkRefusesTheLastWay(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            _ = try await PhoneSignInTests.requestCode(server)
            let code = try await PhoneSignInTests.textedCode(server)
            #expect(
                try await Self.link(
                    server, ["provider": "phone", "phone": PhoneSignInTests.phone, "code": code],
                    bearer: alice.accessToken
                ).status == 201)

            // Removing the email takes a code mailed to it (issue 28 §2).
            let asked = try await server.send(.DELETE, "/v1/me/identities/email", bearer: alice.accessToken)
            #expect(asked.status == 202, "\(asked.text)")
            let email = try await server.send(
                .DELETE, "/v1/me/identities/email",
                json: ["code": try await server.latestCode(to: "alice@example.com")], bearer: alice.accessToken)
            let last = try await server.send(.DELETE, "/v1/me/identities/phone", bearer: alice.accessToken)
            let notLinked = try await server.send(.DELETE, "/v1/me/identities/apple", bearer: alice.accessToken)
            let passwordSignIn = try await server.signIn()

            #expect(email.status == 200 && Self.providers(email) == ["phone"], "\(email.text)")
            // Untyped: no `email` key at all, which a typed optional does not tell from null.
            #expect(email.json["email"] == nil)
            #expect(
                last.status == 409 && last.errorCode == "CONFLICT" && last.errorBody?.reasons == ["last_sign_in_method"]
            )
            #expect(notLinked.status == 404)
            #expect(passwordSignIn.status == 401, "the email and its password are gone")
            server.clock.advance(by: 60)
            _ = try await PhoneSignInTests.requestCode(server)
            let viaPhone = try await PhoneSignInTests.smsSignIn(
                server, code: try await PhoneSignInTests.textedCode(server))
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
