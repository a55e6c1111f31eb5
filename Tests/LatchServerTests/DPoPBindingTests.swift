import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 31 §1: sessions bound to a DPoP key (RFC 9449). A grant with a proof binds the session for its
/// whole life: its access tokens carry `cnf.jkt` and work only as `DPoP` with a fresh proof by that key,
/// and its refresh token refreshes only with that key's proof, refused without burning the chain.
@Suite("Issue 31 §1: DPoP-bound sessions")
struct DPoPBindingTests {
    @Test(
        "31 §1 a grant with a proof binds the session: cnf.jkt, token_type DPoP, listed and recorded as bound",
        arguments: TestDatabase.all)
    func test_31_1_aProofBindsTheSession(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let key = TestDPoPKey()
            let signedIn = try await server.signIn(boundTo: key)
            try #require(signedIn.status == 200, "\(signedIn.text)")
            let tokens = try signedIn.decode(TokenResponse.self)
            #expect(tokens.tokenType == "DPoP")
            let cnf = try JWTParts(tokens.accessToken).claims["cnf"] as? [String: Any]
            #expect(cnf?["jkt"] as? String == key.thumbprint)

            let me = try await server.getBound("/v1/me", token: tokens.accessToken, key: key)
            #expect(me.status == 200, "\(me.text)")
            let sessions = try await server.getBound("/v1/sessions", token: tokens.accessToken, key: key)
            let listed = try sessions.decode([SessionInfo].self)
            #expect(listed.count == 2)
            #expect(listed.first { $0.current }?.bound == true)
            #expect(listed.first { !$0.current }?.bound == false, "signUp's session")

            let detail = try await (server.app.db as! any SQLDatabase).raw(
                "SELECT detail FROM security_events WHERE session_id = \(bind: UUID(uuidString: tokens.sessionId)!)"
            ).all().map { try $0.decode(column: "detail", as: String?.self) }
            #expect(detail == ["dpop"])

            // Without a proof, the same grant still gives a bearer session (`LATCH_DPOP=optional`).
            let bearer = try await server.signIn().decode(TokenResponse.self)
            #expect(bearer.tokenType == "Bearer")
            #expect(try JWTParts(bearer.accessToken).claims["cnf"] == nil)
        }
    }

    @Test("31 §1 registration's verify grant binds too, and a bound refresh stays bound", arguments: TestDatabase.all)
    func test_31_1_registrationAndRefreshStayBound(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let registered = try await server.send(
                .POST, "/v1/registrations",
                json: ["email": "bo@example.com", "password": "Correct-Horse-9", "terms_accepted": true])
            let id = try registered.decode(RegistrationAccepted.self).registrationId
            let key = TestDPoPKey()
            let path = "/v1/registrations/\(id)/verify"
            let verified = try await server.send(
                .POST, path, json: ["code": try await server.latestCode(to: "bo@example.com")],
                headers: [("DPoP", try key.proof("POST", server.baseURL + path, now: server.clock.now))])
            try #require(verified.status == 201, "\(verified.text)")
            let first = try verified.decode(TokenResponse.self)
            #expect(first.tokenType == "DPoP")

            let refreshed = try await server.refresh(first.refreshToken, key: key)
            try #require(refreshed.status == 200, "\(refreshed.text)")
            let second = try refreshed.decode(TokenResponse.self)
            #expect(second.tokenType == "DPoP")
            #expect(
                (try JWTParts(second.accessToken).claims["cnf"] as? [String: Any])?["jkt"] as? String == key.thumbprint)
            #expect(try await server.getBound("/v1/me", token: second.accessToken, key: key).status == 200)
        }
    }

    @Test(
        "31 §1 a bound token sent as Bearer, or with another key's proof, or with none, is refused (401, WWW-Authenticate: DPoP)",
        arguments: TestDatabase.all)
    func test_31_1_boundTokenNeedsItsKey(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let key = TestDPoPKey()
            let tokens = try await server.signIn(boundTo: key).decode(TokenResponse.self)

            let asBearer = try await server.send(.GET, "/v1/me", bearer: tokens.accessToken)
            #expect(asBearer.status == 401)
            #expect(asBearer.errorCode == "DPOP_INVALID")
            #expect(asBearer.reasons == ["bearer_use"])
            #expect(asBearer.headers.first(name: "WWW-Authenticate") == #"DPoP error="invalid_token", algs="ES256""#)
            // Bearer even with a good proof beside it: the scheme itself is refused.
            let bearerWithProof = try await server.getBound(
                "/v1/me", token: tokens.accessToken, key: key, scheme: "Bearer")
            #expect(bearerWithProof.reasons == ["bearer_use"])

            let otherKey = try await server.getBound("/v1/me", token: tokens.accessToken, key: TestDPoPKey())
            #expect(otherKey.status == 401)
            #expect(otherKey.reasons == ["wrong_key"])
            #expect(
                otherKey.headers.first(name: "WWW-Authenticate") == #"DPoP error="invalid_dpop_proof", algs="ES256""#)

            let noProof = try await server.send(
                .GET, "/v1/me", headers: [("Authorization", "DPoP \(tokens.accessToken)")])
            #expect(noProof.status == 401)
            #expect(noProof.reasons == ["missing"])

            // A bearer token cannot claim the DPoP scheme either.
            let bearer = try await server.signIn().decode(TokenResponse.self)
            let claimed = try await server.send(
                .GET, "/v1/me", headers: [("Authorization", "DPoP \(bearer.accessToken)")])
            #expect(claimed.reasons == ["not_bound"])
            #expect(try await server.send(.GET, "/v1/me", bearer: bearer.accessToken).status == 200)
        }
    }

    @Test(
        "31 §1 every proof check of a resource request refused one at a time (htm, htu, ath, typ, alg, iat, jwk, jti)",
        arguments: TestDatabase.all)
    func test_31_1_eachResourceProofCheck(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let key = TestDPoPKey()
            let tokens = try await server.signIn(boundTo: key).decode(TokenResponse.self)
            let token = tokens.accessToken
            let url = server.baseURL + "/v1/me"
            let now = server.clock.now
            let cases: [(String, String)] = [
                ("wrong_htm", try key.proof("POST", url, now: now, accessToken: token)),
                ("wrong_htu", try key.proof("GET", server.baseURL + "/v1/sessions", now: now, accessToken: token)),
                ("wrong_htu", try key.proof("GET", "https://elsewhere.example/v1/me", now: now, accessToken: token)),
                ("wrong_ath", try key.proof("GET", url, now: now, accessToken: token + "x")),
                ("wrong_ath", try key.proof("GET", url, now: now)),
                ("wrong_typ", try key.proof("GET", url, now: now, accessToken: token, header: ["typ": "JWT"])),
                ("unsupported_alg", try key.proof("GET", url, now: now, accessToken: token, header: ["alg": "none"])),
                ("unsupported_alg", try key.proof("GET", url, now: now, accessToken: token, header: ["alg": "HS256"])),
                (
                    "stale_iat",
                    try key.proof(
                        "GET", url, now: now.addingTimeInterval(-DPoPProof.maximumAge - 1), accessToken: token)
                ),
                (
                    "stale_iat",
                    try key.proof(
                        "GET", url, now: now.addingTimeInterval(DPoPProof.maximumSkew + 1), accessToken: token)
                ),
                (
                    "bad_jwk",
                    try key.proof(
                        "GET", url, now: now, accessToken: token, header: ["jwk": key.jwk(withPrivatePart: true)])
                ),
                ("missing_claim", try key.proof("GET", url, now: now, accessToken: token, claims: ["jti": nil]))
            ]
            for (reason, proof) in cases {
                let refused = try await server.getBound("/v1/me", token: token, key: key, proof: proof)
                #expect(refused.status == 401, "\(reason): \(refused.text)")
                #expect(refused.reasons == [reason], "\(refused.text)")
            }
            let good = try key.proof("GET", url, now: now, accessToken: token)
            #expect(try await server.getBound("/v1/me", token: token, key: key, proof: good).status == 200)
            let replayed = try await server.getBound("/v1/me", token: token, key: key, proof: good)
            #expect(replayed.status == 401)
            #expect(replayed.reasons == ["replayed"])
            let two = try await server.send(
                .GET, "/v1/me",
                headers: [
                    ("Authorization", "DPoP \(token)"),
                    ("DPoP", try key.proof("GET", url, now: now, accessToken: token)),
                    ("DPoP", try key.proof("GET", url, now: now, accessToken: token))
                ])
            #expect(two.reasons == ["multiple"])
        }
    }

    @Test(
        "31 §1 the stolen refresh token: refused without the key, the chain not burnt, the owner refreshes afterwards",
        arguments: TestDatabase.all)
    func test_31_1_stolenRefreshTokenIsRefusedWithoutBurningTheChain(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let owner = TestDPoPKey()
            let tokens = try await server.signIn(boundTo: owner).decode(TokenResponse.self)

            let withoutProof = try await server.refresh(tokens.refreshToken, key: nil)
            #expect(withoutProof.status == 400)
            #expect(withoutProof.errorCode == "DPOP_INVALID")
            #expect(withoutProof.reasons == ["missing"])
            let thiefKey = try await server.refresh(tokens.refreshToken, key: TestDPoPKey())
            #expect(thiefKey.status == 400)
            #expect(thiefKey.reasons == ["wrong_key"])

            let ownerRefresh = try await server.refresh(tokens.refreshToken, key: owner)
            try #require(ownerRefresh.status == 200, "\(ownerRefresh.text)")
            let next = try ownerRefresh.decode(TokenResponse.self)
            #expect(try await server.getBound("/v1/me", token: next.accessToken, key: owner).status == 200)
            let events = try await (server.app.db as! any SQLDatabase).raw(
                "SELECT type FROM security_events WHERE type = 'refresh_token_reused'"
            ).all()
            #expect(events.isEmpty, "the thief's tries are no replay: nothing was revoked")
            // The owner sees that a copy of the refresh token was tried: one event per refusal, naming how.
            let refused = try await (server.app.db as! any SQLDatabase).raw(
                "SELECT detail FROM security_events WHERE type = 'dpop_refused' ORDER BY created_at"
            ).all().map { try $0.decode(column: "detail", as: String.self) }
            #expect(refused.sorted() == ["missing", "wrong_key"], "\(refused)")
        }
    }

    @Test(
        "31 §1 the token endpoint's jti is single use on every instance (behind a trusted proxy, at a public origin)",
        arguments: TestDatabase.all)
    func test_31_1_tokenEndpointJTIIsSharedByInstances(database: TestDatabase) async throws {
        let clock = TestClock()
        let proxied: (inout LatchConfig) -> Void = {
            $0.trustedProxies = TrustedProxies(parsing: "127.0.0.1")!
            $0.publicOrigins = ["https://auth.example.com"]
        }
        let first = try await TestServer.start(database, clock: clock, adjust: proxied)
        let second = try await TestServer.start(
            database, clock: clock, sharing: first.location, secretKey: first.secretKey, adjust: proxied)
        defer {
            Task {
                try? await first.stop(); try? await second.stop()
            }
        }
        try await first.signUp()
        let key = TestDPoPKey()
        let proof = try key.proof("POST", "https://auth.example.com/v1/token", now: clock.now)
        let forwarded = [("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "auth.example.com"), ("DPoP", proof)]
        let body: [String: Any] = [
            "grant_type": "password", "email": "alice@example.com", "password": "Correct-Horse-9",
            "device": TestServer.testDevice
        ]
        let signedIn = try await first.send(.POST, "/v1/token", json: body, headers: forwarded)
        #expect(signedIn.status == 200, "\(signedIn.text)")
        #expect(try signedIn.decode(TokenResponse.self).tokenType == "DPoP")
        let replayed = try await second.send(.POST, "/v1/token", json: body, headers: forwarded)
        #expect(replayed.status == 400)
        #expect(replayed.reasons == ["replayed"])
        // The origin is latchd's configured one (issue 41 §2 D1), not the forwarded headers': a fresh proof
        // for it passes without them.
        let direct = try await second.send(
            .POST, "/v1/token", json: body,
            headers: [("DPoP", try key.proof("POST", "https://auth.example.com/v1/token", now: clock.now))])
        #expect(direct.status == 200, "\(direct.text)")
    }

    @Test(
        "31 §1 LATCH_DPOP=required: a grant without a proof is refused, and so is a bearer session's refresh",
        arguments: TestDatabase.all)
    func test_31_1_requiredMode(database: TestDatabase) async throws {
        let clock = TestClock()
        let optional = try await TestServer.start(database, clock: clock)
        let bearer = try await optional.signUp()
        let required = try await TestServer.start(
            database, clock: clock, sharing: optional.location, secretKey: optional.secretKey
        ) { $0.dpop = .required }
        defer {
            Task {
                try? await optional.stop(); try? await required.stop()
            }
        }

        let noProof = try await required.signIn()
        #expect(noProof.status == 400)
        #expect(noProof.errorCode == "DPOP_INVALID")
        #expect(noProof.reasons == ["missing"])
        let key = TestDPoPKey()
        let bound = try await required.signIn(boundTo: key)
        #expect(bound.status == 200, "\(bound.text)")
        let refusedRefresh = try await required.refresh(bearer.refreshToken, key: key)
        #expect(refusedRefresh.reasons == ["session_not_bound"])
        let stillOwned = try await optional.refresh(bearer.refreshToken)
        #expect(stillOwned.status == 200, "the refused refresh moved nothing: \(stillOwned.text)")
    }

    @Test(
        "31 §1 server nonces (LATCH_DPOP_NONCE=1): missing or stale refused with a fresh DPoP-Nonce; only the minting instance's accepted",
        arguments: TestDatabase.all)
    func test_31_1_serverNonces(database: TestDatabase) async throws {
        let clock = TestClock()
        let nonces: (inout LatchConfig) -> Void = { $0.dpopNonces = true }
        let first = try await TestServer.start(database, clock: clock, adjust: nonces)
        let second = try await TestServer.start(
            database, clock: clock, sharing: first.location, secretKey: first.secretKey, adjust: nonces)
        defer {
            Task {
                try? await first.stop(); try? await second.stop()
            }
        }
        try await first.signUp()
        let key = TestDPoPKey()

        let asked = try await first.signIn(boundTo: key)
        #expect(asked.status == 400)
        #expect(asked.errorCode == "USE_DPOP_NONCE")
        let nonce = try #require(asked.headers.first(name: "DPoP-Nonce"))
        let body: [String: Any] = [
            "grant_type": "password", "email": "alice@example.com", "password": "Correct-Horse-9",
            "device": TestServer.testDevice
        ]
        // The first instance's nonce is not the second's (issue 41 §2 D2): it asks for its own.
        let elsewhere = try await second.send(
            .POST, "/v1/token", json: body,
            headers: [("DPoP", try key.proof("POST", second.baseURL + "/v1/token", now: clock.now, nonce: nonce))])
        #expect(elsewhere.errorCode == "USE_DPOP_NONCE", "\(elsewhere.text)")
        let secondNonce = try #require(elsewhere.headers.first(name: "DPoP-Nonce"))
        #expect(secondNonce != nonce)
        let signedIn = try await second.send(
            .POST, "/v1/token", json: body,
            headers: [
                ("DPoP", try key.proof("POST", second.baseURL + "/v1/token", now: clock.now, nonce: secondNonce))
            ])
        try #require(signedIn.status == 200, "\(signedIn.text)")
        let token = try signedIn.decode(TokenResponse.self).accessToken

        let resource = try await second.getBound("/v1/me", token: token, key: key)
        #expect(resource.status == 401)
        #expect(resource.errorCode == "USE_DPOP_NONCE")
        #expect(resource.headers.first(name: "WWW-Authenticate") == #"DPoP error="use_dpop_nonce", algs="ES256""#)
        let withNonce = try key.proof(
            "GET", second.baseURL + "/v1/me", now: clock.now, accessToken: token, nonce: secondNonce)
        #expect(try await second.getBound("/v1/me", token: token, key: key, proof: withNonce).status == 200)

        clock.advance(by: 2 * DPoPNonces.window + 1)
        let stale = try key.proof(
            "GET", second.baseURL + "/v1/me", now: clock.now, accessToken: token, nonce: secondNonce)
        let refused = try await second.getBound("/v1/me", token: token, key: key, proof: stale)
        #expect(refused.errorCode == "USE_DPOP_NONCE")
        #expect(refused.headers.first(name: "DPoP-Nonce") != secondNonce)
    }

    @Test("31 §1 LATCH_DPOP and LATCH_DPOP_NONCE are read strictly")
    func test_31_1_configuration() throws {
        let key = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        #expect(try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key]).dpop == .optional)
        let set = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": key, "LATCH_DPOP": "required", "LATCH_DPOP_NONCE": "1"
        ])
        #expect(set.dpop == .required && set.dpopNonces)
        for (name, value) in [("LATCH_DPOP", "yes"), ("LATCH_DPOP_NONCE", "maybe")] {
            let error = try #require(throws: ConfigurationError.self) {
                try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key, name: value])
            }
            #expect("\(error)".contains(name))
        }
    }
}
