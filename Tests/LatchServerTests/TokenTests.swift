import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

/// C5/C6 and the token contract: ES256 access tokens, rotating refresh tokens with a grace window.
@Suite("Tokens (C5, C6)")
struct TokenTests {
    @Test(
        "C5 access token is ES256 with kid, integer iat/exp, 2 h, and the contract's claims",
        arguments: TestDatabase.all)
    func C5_accessTokenFormat(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            let jwt = try JWTParts(tokens.accessToken)
            let jwks = try await server.send(.GET, "/.well-known/jwks.json")

            #expect(jwt.header["alg"] as? String == "ES256")
            let kid = try #require(jwt.header["kid"] as? String)
            let keys = try #require(jwks.json["keys"] as? [[String: Any]])
            #expect(
                keys.contains {
                    $0["kid"] as? String == kid && $0["kty"] as? String == "EC" && $0["crv"] as? String == "P-256"
                })
            #expect(jwt.claims["iss"] as? String == "http://latch.test")
            #expect(jwt.claims["aud"] as? String == "latch")
            #expect(jwt.claims["sub"] as? String == tokens.user.id)
            #expect(jwt.claims["sid"] as? String == tokens.sessionId)
            #expect((jwt.claims["jti"] as? String)?.isEmpty == false)
            let iat = try #require(jwt.claims["iat"] as? Int), exp = try #require(jwt.claims["exp"] as? Int)
            #expect(exp - iat == 7200)
            #expect(iat == Int(server.clock.now.timeIntervalSince1970))
            #expect(
                jwt.claimsJSON.contains("\"iat\":\(iat),") || jwt.claimsJSON.contains("\"iat\":\(iat)}"),
                "iat is a whole number: \(jwt.claimsJSON)")
            #expect(
                jwt.claimsJSON.contains("\"exp\":\(exp),") || jwt.claimsJSON.contains("\"exp\":\(exp)}"),
                "exp is a whole number: \(jwt.claimsJSON)")
            #expect(tokens.expiresIn == 7200 && tokens.tokenType == "Bearer")
            #expect(tokens.refreshExpiresIn == 30 * 24 * 3600)
            #expect(JWTParts.decodeLength(tokens.refreshToken) == 32, "refresh token is 256 bits")
        }
    }

    @Test("C5 access token expires after 2 hours", arguments: TestDatabase.all)
    func C5_accessTokenExpires(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            #expect(try await server.send(.GET, "/v1/me", bearer: tokens.accessToken).status == 200)

            server.clock.advance(by: 7200)

            let expired = try await server.send(.GET, "/v1/me", bearer: tokens.accessToken)
            #expect(expired.status == 401 && expired.errorCode == "AUTH_004")
        }
    }

    @Test("C5 tampered, unsigned, wrong-alg and wrong-audience tokens are refused", arguments: TestDatabase.all)
    func C5_forgedTokensRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let parts = tokens.accessToken.split(separator: ".").map(String.init)
            var claims = try JWTParts(tokens.accessToken).claims

            claims["sub"] = UUID().uuidString.lowercased()
            let tamperedClaims = JWTParts.encode(try JSONSerialization.data(withJSONObject: claims))
            let tampered = [parts[0], tamperedClaims, parts[2]].joined(separator: ".")
            let noneHeader = JWTParts.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
            let unsigned = [noneHeader, parts[1], ""].joined(separator: ".")
            var header = try JWTParts(tokens.accessToken).header
            header["alg"] = "HS256"
            let hsHeader = JWTParts.encode(try JSONSerialization.data(withJSONObject: header))
            let wrongAlg = [hsHeader, parts[1], parts[2]].joined(separator: ".")
            claims = try JWTParts(tokens.accessToken).claims
            claims["aud"] = "someone-else"
            let wrongAudience = [
                parts[0], JWTParts.encode(try JSONSerialization.data(withJSONObject: claims)), parts[2]
            ].joined(separator: ".")

            for token in [tampered, unsigned, wrongAlg, wrongAudience, "garbage", ""] {
                let response = try await server.send(.GET, "/v1/me", bearer: token)
                #expect(response.status == 401 && response.errorCode == "AUTH_004", "token \(token.prefix(20))…")
            }
            #expect(try await server.send(.GET, "/v1/me").status == 401)
        }
    }

    @Test("C6 every refresh rotates the token and the new one works", arguments: TestDatabase.all)
    func C6_refreshRotates(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let first = try await server.signUp()

            let second = try await server.refresh(first.refreshToken).decode(TokenResponse.self)
            let third = try await server.refresh(second.refreshToken).decode(TokenResponse.self)

            #expect(second.refreshToken != first.refreshToken)
            #expect(third.refreshToken != second.refreshToken)
            #expect(third.sessionId == first.sessionId)
            #expect(try await server.send(.GET, "/v1/me", bearer: third.accessToken).status == 200)
        }
    }

    @Test(
        "C6 two refreshes of one token racing within 10 s both succeed and leave the session usable",
        arguments: TestDatabase.all)
    func C6_rotationRaceWithinGraceWindow(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            async let a = server.refresh(tokens.refreshToken)
            async let b = server.refresh(tokens.refreshToken)
            let (first, second) = try await (a, b)

            // One rotates, the other gets the grace answer (only once: see RecoveryHardeningTests).
            #expect(first.status == 200 && second.status == 200, "\(first.text) \(second.text)")
            let refreshed = try [first, second].map { try $0.decode(TokenResponse.self).refreshToken }
            #expect(Set(refreshed).count == 1, "the duplicate gets the session's current token")
            let next = try await server.refresh(refreshed[0])
            #expect(next.status == 200)
            #expect(
                try await server.send(.GET, "/v1/me", bearer: try next.decode(TokenResponse.self).accessToken).status
                    == 200)
        }
    }

    @Test("C6 a replay after the grace window revokes the session and is recorded", arguments: TestDatabase.all)
    func C6_replayAfterGraceRevokesSession(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let rotated = try await server.refresh(tokens.refreshToken).decode(TokenResponse.self)

            server.clock.advance(by: 11)
            let replay = try await server.refresh(tokens.refreshToken)

            #expect(replay.status == 401 && replay.errorCode == "AUTH_004")
            let afterReplay = try await server.refresh(rotated.refreshToken)
            #expect(afterReplay.status == 401 && afterReplay.errorCode == "AUTH_004", "the whole session is revoked")
            #expect(try await server.send(.GET, "/v1/me", bearer: rotated.accessToken).status == 401)
            let other = try await server.signIn().decode(TokenResponse.self)
            let events = try await server.send(.GET, "/v1/security-events", bearer: other.accessToken).securityEvents
            #expect(
                events.contains {
                    $0.type == "refresh_token_reused" && $0.sessionId == tokens.sessionId
                })
        }
    }

    @Test("C6 a token two rotations old is a replay even inside 10 s", arguments: TestDatabase.all)
    func C6_olderTokenIsReplay(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let first = try await server.signUp()
            let second = try await server.refresh(first.refreshToken).decode(TokenResponse.self)
            _ = try await server.refresh(second.refreshToken).decode(TokenResponse.self)

            let replay = try await server.refresh(first.refreshToken)

            #expect(replay.status == 401 && replay.errorCode == "AUTH_004")
        }
    }

    @Test("C5 refresh tokens expire after 30 days without use", arguments: TestDatabase.all)
    func C5_refreshTokenLifetime(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            server.clock.advance(by: 30 * 24 * 3600 + 1)

            let expired = try await server.refresh(tokens.refreshToken)
            #expect(expired.status == 401 && expired.errorCode == "AUTH_004")
            #expect(try await server.refresh("not-a-token").errorCode == "AUTH_004")
        }
    }

    @Test("C5 the signing key persists: tokens stay valid across a restart", arguments: TestDatabase.all)
    func C5_signingKeySurvivesRestart(database: TestDatabase) async throws {
        let clock = TestClock()
        let first = try await TestServer.start(database, clock: clock)
        let tokens = try await first.signUp()
        let location = first.location
        try await first.stop()

        let second = try await TestServer.start(database, clock: clock, sharing: location)
        let me = try await second.send(.GET, "/v1/me", bearer: tokens.accessToken)
        let refreshed = try await second.refresh(tokens.refreshToken)
        try await second.stop()

        #expect(me.status == 200)
        #expect(refreshed.status == 200)
    }
}

extension JWTParts {
    static func decodeLength(_ base64url: String) -> Int { (try? decode(base64url).count) ?? -1 }
}
