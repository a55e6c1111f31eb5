import Crypto
import FluentKit
import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOCore
import NIOHTTP1
import SQLKit
import Testing

/// Issue 12 §1, Sign in with Apple revocation (TN3194): the `apple` grant and Apple linking take the
/// app's `authorization_code`, latchd exchanges it (client secret: ES256 JWT of the team key) for
/// Apple's refresh token, keeps it sealed, and revokes it when the account is deleted or Apple unlinked.
/// Apple is the local stand-in, which checks client secrets as Apple documents.
@Suite("Sign in with Apple revocation (issue 12 §1)")
struct AppleRevocationTests {
    /// The stand-in's Apple key (one for every test: latchd caches the key set it fetched).
    static let key = try! AppleTestKey(kid: "apple-1")

    /// An `apple` grant with an authorization code the stand-in issued for `subject`.
    static func appleSignIn(
        _ server: TestServer, _ apple: ProviderStandIn, code: String? = "code-1", subject: String = "001234.abcdef"
    ) async throws -> TestResponse {
        let key = Self.key
        apple.publish([key])
        var body: [String: Any] = [
            "grant_type": "apple",
            "identity_token": try await key.identityToken(subject: subject, expires: server.clock.now + 600),
            "nonce": AppleTestKey.defaultNonce
        ]
        if let code {
            apple.issueAppleCode(code, subject: subject)
            body["authorization_code"] = code
        }
        return try await server.send(.POST, "/v1/token", json: body)
    }

    @Test(
        "test_12 deletion revokes the Apple refresh token the authorization code gave; it was stored sealed",
        arguments: TestDatabase.all)
    func test_12_deletionRevokesAppleToken(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let signedIn = try await Self.appleSignIn(server, apple)
            try #require(signedIn.status == 200, "\(signedIn.text)")
            let tokens = try signedIn.decode(TokenResponse.self)
            let issued = try #require(apple.appleRefreshTokens.first)
            #expect(issued.clientID == ProviderStandIn.appleClientID)
            let stored = try await AccountDeletionTests.rows(
                server, "SELECT apple_refresh_token FROM identities WHERE provider = 'apple'")
            let sealed = try #require(try stored.first?.decode(column: "apple_refresh_token", as: String?.self))
            #expect(!sealed.contains(issued.token), "kept encrypted at rest")

            let deleted = try await AccountDeletionTests.deleteAccount(server, bearer: tokens.accessToken)

            #expect(
                deleted.status == 200 && (try? deleted.decode(AccountDeleted.self))?.appleRevocation == .revoked,
                "\(deleted.text)")
            #expect(apple.appleRevoked == [issued], "Apple was asked to revoke exactly that token, for its client id")
            #expect(apple.clientSecretRefusals.isEmpty, "\(apple.clientSecretRefusals)")
            let again = try await Self.appleSignIn(server, apple, code: "code-2")
            #expect(try again.decode(TokenResponse.self).user.id != tokens.user.id, "the Apple ID signs up afresh")
        }
    }

    @Test(
        "test_12 without a held Apple refresh token, or when Apple fails, the deletion completes and says not_possible",
        arguments: TestDatabase.all)
    func test_12_appleRevocationNotPossible(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let withoutCode = try await Self.appleSignIn(server, apple, code: nil, subject: "sub-no-code")
            let withCode = try await Self.appleSignIn(server, apple, code: "code-x", subject: "sub-apple-down")
            apple.forceRevokeStatus(500)

            let first = try await AccountDeletionTests.deleteAccount(
                server, bearer: try withoutCode.decode(TokenResponse.self).accessToken)
            let second = try await AccountDeletionTests.deleteAccount(
                server, bearer: try withCode.decode(TokenResponse.self).accessToken)

            #expect(
                first.status == 200 && (try? first.decode(AccountDeleted.self))?.appleRevocation == .notPossible,
                "\(first.text)")
            #expect(
                second.status == 200 && (try? second.decode(AccountDeleted.self))?.appleRevocation == .notPossible,
                "\(second.text)")
            #expect(apple.appleRevoked.isEmpty)
            let me = try await server.send(.GET, "/v1/me", bearer: try withCode.decode(TokenResponse.self).accessToken)
            #expect(me.status == 401, "deleted all the same")
        }
    }

    @Test(
        "test_12 the Apple stand-in refuses a wrong client secret (another key, another team): 503, never a sign-in",
        arguments: TestDatabase.all)
    func test_12_wrongClientSecretIsRefused(database: TestDatabase) async throws {
        let clock = TestClock()
        let apple = try await ProviderStandIn.start(clock: clock)
        var wrongKey = apple.providers
        wrongKey.apple?.teamKey = AppleTeamKey(
            teamID: ProviderStandIn.appleTeamID, keyID: ProviderStandIn.appleKeyID,
            privateKey: P256.Signing.PrivateKey())
        var wrongTeam = apple.providers
        wrongTeam.apple?.teamKey?.teamID = "OTHERTEAM1"
        var answers: [TestResponse] = []
        for providers in [wrongKey, wrongTeam] {
            let server = try await TestServer.start(database, clock: clock, signInProviders: providers)
            answers.append(try await Self.appleSignIn(server, apple, code: "code-\(answers.count)"))
            try await server.stop()
        }
        try await apple.stop()

        for answer in answers {
            #expect(
                answer.status == 503 && answer.errorBody?.reasons == ["provider_unavailable", "client_secret_refused"],
                "\(answer.text)")
        }
        #expect(apple.clientSecretRefusals == ["bad_signature", "wrong_iss"])
        #expect(apple.appleRefreshTokens.isEmpty, "no code was exchanged")
    }

    @Test(
        "test_12 an authorization code Apple refuses, or one of another Apple user, is 401 on authorization_code",
        arguments: TestDatabase.all)
    func test_12_badAuthorizationCodeIsRefused(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let key = try AppleTestKey(kid: "apple-1")
            apple.publish([key])
            apple.issueAppleCode("code-of-someone-else", subject: "another-person")
            func grant(_ code: String) async throws -> TestResponse {
                try await server.send(
                    .POST, "/v1/token",
                    json: [
                        "grant_type": "apple",
                        "identity_token": try await key.identityToken(expires: server.clock.now + 600),
                        "nonce": AppleTestKey.defaultNonce, "authorization_code": code
                    ])
            }

            let unknown = try await grant("never-issued")
            let mismatched = try await grant("code-of-someone-else")
            let malformed = try await grant("has spaces")

            #expect(unknown.status == 401 && unknown.errorBody?.reasons == ["invalid_code"], "\(unknown.text)")
            #expect(unknown.errorBody?.field == "authorization_code")
            #expect(
                mismatched.status == 401 && mismatched.errorBody?.reasons == ["code_mismatch"], "\(mismatched.text)")
            #expect(malformed.status == 422 || malformed.status == 400, "\(malformed.text)")
        }
    }

    @Test("test_12 unlinking Apple revokes its refresh token", arguments: TestDatabase.all)
    func test_12_unlinkingAppleRevokesToken(database: TestDatabase) async throws {
        try await withProviders(database) { server, apple in
            let alice = try await server.signUp()
            let key = try AppleTestKey(kid: "apple-1")
            apple.publish([key])
            apple.issueAppleCode("link-code", subject: "alice-apple")
            let linked = try await server.send(
                .POST, "/v1/me/identities",
                json: [
                    "provider": "apple",
                    "identity_token": try await key.identityToken(
                        subject: "alice-apple", expires: server.clock.now + 600),
                    "nonce": AppleTestKey.defaultNonce, "authorization_code": "link-code"
                ], bearer: alice.accessToken)
            try #require(linked.status == 201, "\(linked.text)")
            let issued = try #require(apple.appleRefreshTokens.first)

            let unlinked = try await server.send(.DELETE, "/v1/me/identities/apple", bearer: alice.accessToken)

            #expect(unlinked.status == 200, "\(unlinked.text)")
            #expect(apple.appleRevoked == [issued])
        }
    }

    @Test(
        "test_12 the team key variables: all or none, a readable P-256 PEM, errors naming the variable and never the key"
    )
    func test_12_appleTeamKeyConfiguration() throws {
        let key = P256.Signing.PrivateKey()
        let base = ["LATCH_SECRET_KEY": ConfigurationTests.key, "LATCH_APPLE_CLIENT_IDS": ProviderStandIn.appleClientID]
        var good = base
        good["LATCH_APPLE_TEAM_ID"] = "TEAM123456"
        good["LATCH_APPLE_KEY_ID"] = "KEY7654321"
        good["LATCH_APPLE_PRIVATE_KEY"] = key.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n")
        good["LATCH_APPLE_REVOKE_URL"] = "http://127.0.0.1:9/auth/revoke"
        let apple = try #require(try LatchConfig.fromEnvironment(good).signInProviders.apple)
        #expect(apple.teamKey?.privateKey.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
        #expect(apple.teamKey?.keyID == "KEY7654321" && apple.teamKey?.teamID == "TEAM123456")
        #expect(apple.tokenURL == "https://appleid.apple.com/auth/token")
        #expect(apple.revokeURL == "http://127.0.0.1:9/auth/revoke")
        #expect(try LatchConfig.fromEnvironment(base).signInProviders.apple?.teamKey == nil)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey-\(UUID().uuidString).p8")
        try key.pemRepresentation.write(to: file, atomically: true, encoding: .utf8)
        var fromFile = good
        fromFile["LATCH_APPLE_PRIVATE_KEY"] = nil
        fromFile["LATCH_APPLE_PRIVATE_KEY_FILE"] = file.path
        #expect(try LatchConfig.fromEnvironment(fromFile).signInProviders.apple?.teamKey != nil)
        try? FileManager.default.removeItem(at: file)

        var cases: [(String?, String?, String)] = [] // (name to change, new value, variable named)
        cases.append(("LATCH_APPLE_KEY_ID", nil, "LATCH_APPLE_KEY_ID"))
        cases.append(
            (
                "LATCH_APPLE_PRIVATE_KEY", "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----",
                "LATCH_APPLE_PRIVATE_KEY"
            ))
        cases.append(("LATCH_APPLE_PRIVATE_KEY", nil, "LATCH_APPLE_PRIVATE_KEY"))
        cases.append(("LATCH_APPLE_TEAM_ID", "bad team!", "LATCH_APPLE_TEAM_ID"))
        cases.append(("LATCH_APPLE_TOKEN_URL", "ftp://x", "LATCH_APPLE_TOKEN_URL"))
        cases.append(("LATCH_APPLE_PRIVATE_KEY_FILE", "/nonexistent/AuthKey.p8", "LATCH_APPLE_PRIVATE_KEY_FILE"))
        cases.append(("LATCH_APPLE_CLIENT_IDS", nil, "LATCH_APPLE_CLIENT_IDS"))
        for (name, value, variable) in cases {
            var environment = good
            if let name { environment[name] = value }
            let error = try #require(throws: ConfigurationError.self) { try LatchConfig.fromEnvironment(environment) }
            #expect(error.variable == variable, "\(name ?? "") → \(error)")
            #expect(
                !error.description.contains("BEGIN") && !error.description.contains(good["LATCH_APPLE_PRIVATE_KEY"]!))
        }
    }
}
