import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// C1 Sign in with Apple: identity tokens signed by keys the test generates, served from a local
/// JWKS endpoint that stands in for Apple's.
@Suite("Sign in with Apple (C1)")
struct AppleSignInTests {
    /// Signs in with `token` (and `nonce`, by default the one test tokens carry; `full_name` when given).
    static func appleSignIn(
        _ server: TestServer, _ token: String, nonce: String? = AppleTestKey.defaultNonce, fullName: String? = nil,
        device: [String: String]? = nil
    ) async throws -> TestResponse {
        var body: [String: Any] = ["grant_type": "apple", "identity_token": token]
        if let nonce { body["nonce"] = nonce }
        if let fullName { body["full_name"] = fullName }
        if let device { body["device"] = device }
        return try await server.send(.POST, "/v1/token", json: body)
    }

    @Test(
        "C1 a valid Apple identity token creates the account keyed by (apple, sub) and signs it in",
        arguments: TestDatabase.all)
    func C1_appleSignInCreatesAccountKeyedBySub(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let key = try AppleTestKey(kid: "apple-1")
            apple.publish([key])
            let expires = server.clock.now.addingTimeInterval(600)

            let first = try await Self.appleSignIn(
                server, try await key.identityToken(expires: expires, nonce: "raw-nonce-1"), nonce: "raw-nonce-1")
            let second = try await Self.appleSignIn(
                server, try await key.identityToken(expires: expires, nonce: "raw-nonce-2"), nonce: "raw-nonce-2")
            let other = try await Self.appleSignIn(
                server, try await key.identityToken(subject: "009999.other", expires: expires))

            #expect(first.status == 200, "\(first.text)")
            #expect(second.status == 200, "\(second.text)")
            let firstUser = try first.decode(TokenResponse.self).user
            #expect(try second.decode(TokenResponse.self).user.id == firstUser.id, "the same sub is the same account")
            #expect(try other.decode(TokenResponse.self).user.id != firstUser.id, "another sub is another account")
            #expect(firstUser.email == nil)
            let me = try await server.send(.GET, "/v1/me", bearer: try first.decode(TokenResponse.self).accessToken)
            let identities = try #require(try me.decode(UserInfo.self).identities, "\(me.text)")
            #expect(identities.map(\.provider) == ["apple"])
            #expect(await server.app.identityServices.appleKeyFetches == 1, "the key set is fetched once and cached")
        }
    }

    @Test(
        "C1 Apple tokens with a wrong audience, wrong issuer, expiry or tampered signature are refused",
        arguments: TestDatabase.all)
    func C1_appleTokenClaimsAndSignatureAreChecked(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let key = try AppleTestKey(kid: "apple-1")
            let stranger = try AppleTestKey(kid: "apple-1") // same kid, key not Apple's
            apple.publish([key])
            let now = server.clock.now

            let wrongAudience = try await Self.appleSignIn(
                server, try await key.identityToken(audience: "com.attacker.app", expires: now + 600))
            let wrongIssuer = try await Self.appleSignIn(
                server, try await key.identityToken(issuer: "https://evil.example.com", expires: now + 600))
            let expired = try await Self.appleSignIn(server, try await key.identityToken(expires: now - 1))
            let forged = try await Self.appleSignIn(server, try await stranger.identityToken(expires: now + 600))
            var parts = try await key.identityToken(expires: now + 600).split(separator: ".").map(String.init)
            parts[1] = JWTParts.encode(
                Data(
                    #"{"iss":"https://appleid.apple.com","aud":"com.example.wallet","sub":"victim","exp":9999999999}"#
                        .utf8))
            let tampered = try await Self.appleSignIn(server, parts.joined(separator: "."))
            let garbage = try await Self.appleSignIn(server, "not-a-jwt")

            for (answer, reason) in [
                (wrongAudience, "wrong_audience"), (wrongIssuer, "wrong_issuer"), (expired, "expired"),
                (forged, "invalid_signature"), (tampered, "invalid_signature"), (garbage, "malformed_token")
            ] {
                #expect(answer.status == 401 && answer.errorCode == "AUTH_001", "\(reason): \(answer.text)")
                #expect(answer.errorBody?.reasons == [reason], "\(answer.text)")
                #expect(answer.errorBody?.field == "identity_token")
            }
        }
    }

    @Test("C1 the token's nonce must be the SHA-256 of the raw nonce the app sends", arguments: TestDatabase.all)
    func C1_appleNonceIsChecked(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let key = try AppleTestKey(kid: "apple-1")
            apple.publish([key])
            let token = try await key.identityToken(expires: server.clock.now + 600, nonce: "the-raw-nonce")

            let wrong = try await Self.appleSignIn(server, token, nonce: "another-nonce")
            let missing = try await Self.appleSignIn(server, token, nonce: nil)
            let hashedSentAsRaw = try await Self.appleSignIn(
                server, token, nonce: "0d4f4d6c0b2e3e0c4e1f1c5d0f2b6f7a8e9d0c1b2a3f4e5d6c7b8a9f0e1d2c3b")
            let right = try await Self.appleSignIn(server, token, nonce: "the-raw-nonce")

            #expect(wrong.status == 401 && wrong.errorBody?.reasons == ["nonce_mismatch"])
            #expect(missing.status == 401 && missing.errorBody?.reasons == ["nonce_required"])
            #expect(hashedSentAsRaw.status == 401)
            #expect(right.status == 200, "\(right.text)")
        }
    }

    @Test(
        "C1 an unknown kid makes latchd fetch Apple's keys again (at most once a minute) and accept a rotated key",
        arguments: TestDatabase.all)
    func C1_unknownKidRefetchesRotatedKeys(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let old = try AppleTestKey(kid: "apple-old")
            let new = try AppleTestKey(kid: "apple-new")
            apple.publish([old])
            #expect(
                try await Self.appleSignIn(server, try await old.identityToken(expires: server.clock.now + 600)).status
                    == 200)

            // Apple rotates; the new key arrives within the minute of the last fetch: one refetch is allowed.
            apple.publish([new])
            server.clock.advance(by: 61)
            let rotated = try await Self.appleSignIn(
                server, try await new.identityToken(expires: server.clock.now + 600))
            // A made-up kid right after that fetch does not cause another one.
            let madeUp = try await Self.appleSignIn(
                server, try await new.identityToken(expires: server.clock.now + 600, signingKid: "made-up"))

            #expect(rotated.status == 200, "\(rotated.text)")
            #expect(madeUp.status == 401 && madeUp.errorBody?.reasons == ["unknown_key"])
            #expect(apple.jwksFetches == 2)
            #expect(await server.app.identityServices.appleKeyFetches == 2)
        }
    }

    @Test(
        "C1 the name the app passes on the first Apple sign-in is kept; later names do not replace it",
        arguments: TestDatabase.all)
    func C1_firstSignInNameIsKept(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let key = try AppleTestKey(kid: "apple-1")
            apple.publish([key])
            let first = try await Self.appleSignIn(
                server, try await key.identityToken(expires: server.clock.now + 600), fullName: "  Zhang  San ")
            let later = try await Self.appleSignIn(
                server, try await key.identityToken(expires: server.clock.now + 600), fullName: "Someone Else")

            #expect(try first.decode(TokenResponse.self).user.nickname == "Zhang  San")
            #expect(try later.decode(TokenResponse.self).user.nickname == "Zhang  San")
        }
    }

    @Test(
        "C1 an Apple email joins an existing account only when both Apple and the account say it is verified",
        arguments: TestDatabase.all)
    func C1_appleEmailLinksOnlyWhenBothVerified(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let key = try AppleTestKey(kid: "apple-1")
            apple.publish([key])
            let alice = try await server.signUp("alice@example.com")
            let expires = server.clock.now + 600

            let unverified = try await Self.appleSignIn(
                server,
                try await key.identityToken(
                    subject: "sub-unverified", expires: expires, email: "alice@example.com", emailVerified: false))
            let verified = try await Self.appleSignIn(
                server,
                try await key.identityToken(subject: "sub-verified", expires: expires, email: "ALICE@example.com"),
                device: TestServer.testDevice)
            let relay = try await Self.appleSignIn(
                server,
                try await key.identityToken(
                    subject: "sub-relay", expires: expires, email: "x1y2z3@privaterelay.appleid.com"))

            let unverifiedUser = try unverified.decode(TokenResponse.self).user
            #expect(unverifiedUser.id != alice.user.id, "an unverified Apple email never joins an account")
            #expect(unverifiedUser.email == nil, "and does not become the new account's email")
            #expect(
                try verified.decode(TokenResponse.self).user.id == alice.user.id, "both verified: the accounts join")
            let relayUser = try relay.decode(TokenResponse.self).user
            #expect(relayUser.email == "x1y2z3@privaterelay.appleid.com", "a private-relay address is kept as is")
            let me = try await server.send(.GET, "/v1/me", bearer: alice.accessToken)
            let providers = try me.decode(UserInfo.self).identities?.map(\.provider)
            #expect(providers == ["email", "apple"])
        }
    }

    @Test(
        "C1 six concurrent first sign-ins with one Apple account create exactly one account",
        arguments: TestDatabase.all)
    func C1_concurrentFirstSignInsCreateOneAccount(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let key = try AppleTestKey(kid: "apple-1")
            apple.publish([key])
            var tokens: [String] = []
            for _ in 0..<6 { tokens.append(try await key.identityToken(expires: server.clock.now + 600)) }

            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                // Six: below the test client's eight connections per host, so none waits for a connection.
                for token in tokens { group.addTask { try await Self.appleSignIn(server, token) } }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }

            #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.text))")
            let ids = Set(try answers.map { try $0.decode(TokenResponse.self).user.id })
            #expect(ids.count == 1)
            #expect(apple.jwksFetches == 1, "one fetch shared by all")
        }
    }

    @Test(
        "C1 without LATCH_APPLE_CLIENT_IDS the apple grant is refused with a clear 422, never a 5xx",
        arguments: TestDatabase.all)
    func C1_appleUnconfiguredIsRefusedClearly(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let answer = try await Self.appleSignIn(server, "a.b.c")

            #expect(answer.status == 422 && answer.errorCode == "VALIDATION_FAILED")
            #expect(answer.errorBody?.reasons == ["provider_not_configured"])
            #expect((answer.errorBody?.message)?.contains("Apple") == true)
        }
    }

    @Test("C1 Apple's key set unreachable answers 503 with retry_after, not a 500", arguments: [TestDatabase.sqlite])
    func C1_appleKeysUnreachableIs503(database: TestDatabase) async throws {
        let standIn = try await ProviderStandIn.start()
        let unreachable = SignInProviders(
            apple: .init(clientIDs: [ProviderStandIn.appleClientID], jwksURL: "http://127.0.0.1:9/auth/keys"))
        let server = try await TestServer.start(database, signInProviders: unreachable)
        let key = try AppleTestKey(kid: "apple-1")
        let answer = try await Self.appleSignIn(server, try await key.identityToken(expires: server.clock.now + 600))
        try await server.stop()
        try await standIn.stop()

        #expect(answer.status == 503 && answer.errorBody?.reasons == ["provider_unavailable", "keys_unavailable"])
        #expect(answer.errorBody?.retryAfter == 30)
    }

    @Test(
        "test_10 with LATCH_APPLE_REQUIRE_NONCE on (the default) an Apple grant without a nonce is refused: 401 nonce_required",
        arguments: TestDatabase.all)
    func test_10_appleNonceIsRequiredByDefault(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let key = try AppleTestKey(kid: "apple-1")
            apple.publish([key])

            // A token bound to no nonce at all, sent without one: acceptable only if nonces are optional.
            let unbound = try await Self.appleSignIn(
                server, try await key.identityToken(expires: server.clock.now + 600, nonce: nil), nonce: nil)
            let bound = try await Self.appleSignIn(
                server, try await key.identityToken(expires: server.clock.now + 600), nonce: nil)

            for answer in [unbound, bound] {
                #expect(answer.status == 401 && answer.errorCode == "AUTH_001", "\(answer.text)")
                #expect(answer.errorBody?.field == "nonce" && answer.errorBody?.reasons == ["nonce_required"])
            }
            #expect(try LatchConfig.fromEnvironment(Self.appleEnvironment).signInProviders.apple?.requireNonce == true)
        }
    }

    @Test("test_10 LATCH_APPLE_REQUIRE_NONCE=0 accepts a token without a nonce; a bad value names the variable")
    func test_10_appleNonceRequirementCanBeTurnedOff() async throws {
        let standIn = try await ProviderStandIn.start()
        var providers = standIn.providers
        providers.apple?.requireNonce = false
        let server = try await TestServer.start(.sqlite, signInProviders: providers)
        let key = try AppleTestKey(kid: "apple-1")
        standIn.publish([key])
        let answer = try await Self.appleSignIn(
            server, try await key.identityToken(expires: server.clock.now + 600, nonce: nil), nonce: nil)
        try await server.stop()
        try await standIn.stop()

        #expect(answer.status == 200, "\(answer.text)")
        var off = Self.appleEnvironment
        off["LATCH_APPLE_REQUIRE_NONCE"] = "false"
        #expect(try LatchConfig.fromEnvironment(off).signInProviders.apple?.requireNonce == false)
        var bad = Self.appleEnvironment
        bad["LATCH_APPLE_REQUIRE_NONCE"] = "sometimes"
        let error = try #require(throws: ConfigurationError.self) { try LatchConfig.fromEnvironment(bad) }
        #expect(error.variable == "LATCH_APPLE_REQUIRE_NONCE")
    }

    @Test(
        "test_10 an Apple identity token is accepted once: a replay, even by another latchd on the same database, is 401 token_replayed",
        arguments: TestDatabase.all)
    func test_10_appleIdentityTokenIsAcceptedOnce(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let key = try AppleTestKey(kid: "apple-1")
            apple.publish([key])
            let other = try await TestServer.start(
                database, clock: server.clock, sharing: server.location, signInProviders: apple.providers)
            let token = try await key.identityToken(expires: server.clock.now + 600)
            let linkToken = try await key.identityToken(subject: "apple-linker", expires: server.clock.now + 600)
            let alice = try await server.signUp()

            let first = try await Self.appleSignIn(server, token)
            let again = try await Self.appleSignIn(server, token)
            let elsewhere = try await Self.appleSignIn(other, token)
            let linked = try await server.send(
                .POST, "/v1/me/identities",
                json: ["provider": "apple", "identity_token": linkToken, "nonce": AppleTestKey.defaultNonce],
                bearer: alice.accessToken)
            let linkReplayed = try await Self.appleSignIn(other, linkToken)
            let fresh = try await Self.appleSignIn(other, try await key.identityToken(expires: server.clock.now + 600))
            try await other.stop()

            #expect(first.status == 200, "\(first.text)")
            for replay in [again, elsewhere, linkReplayed] {
                #expect(replay.status == 401 && replay.errorCode == "AUTH_001", "\(replay.text)")
                #expect(replay.errorBody?.reasons == ["token_replayed"], "\(replay.text)")
            }
            #expect(linked.status == 201, "\(linked.text)")
            #expect(fresh.status == 200, "a new token of the same person is fine: \(fresh.text)")
        }
    }

    @Test(
        "test_10 six concurrent sign-ins with one Apple identity token on two latchd: exactly one is accepted",
        arguments: TestDatabase.all)
    func test_10_concurrentUsesOfOneAppleTokenAcceptOne(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let key = try AppleTestKey(kid: "apple-1")
            apple.publish([key])
            let other = try await TestServer.start(
                database, clock: server.clock, sharing: server.location, signInProviders: apple.providers)
            let token = try await key.identityToken(expires: server.clock.now + 600)

            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for index in 0..<6 {
                    group.addTask { try await Self.appleSignIn(index.isMultiple(of: 2) ? server : other, token) }
                }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            try await other.stop()

            #expect(answers.filter { $0.status == 200 }.count == 1, "\(answers.map(\.text))")
            #expect(answers.filter { $0.errorBody?.reasons == ["token_replayed"] }.count == 5, "\(answers.map(\.text))")
        }
    }

    static let appleEnvironment = [
        "LATCH_SECRET_KEY": ConfigurationTests.key, "LATCH_APPLE_CLIENT_IDS": ProviderStandIn.appleClientID
    ]
}
