import Crypto
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 41 §2 D1 and D2: a proof names latchd's own public origin, never the one the request claims
/// (D1); with server nonces on, a captured resource proof is good nowhere else and never again, not at
/// another instance and not after a restart, and a nonce lives well under a proof's window (D2).
@Suite("Issue 41 §2: DPoP repairs (D1, D2)")
struct DPoPGuardRepairTests {
    @Test("41 §2 D1 a proof for another origin is refused whatever Host or X-Forwarded-Host the request claims")
    func D1_htuIsComparedWithTheConfiguredOrigin() async throws {
        try await withServer(.sqlite, adjust: { $0.trustedProxies = TrustedProxies(parsing: "127.0.0.1")! }) {
            server in
            try await server.signUp()
            let key = TestDPoPKey()
            let tokens = try await server.signIn(boundTo: key).decode(TokenResponse.self)
            let token = tokens.accessToken
            let now = server.clock.now

            // The review's request: a proof made for http://other.example/v1/me, sent with that Host.
            let claimedHost = try await server.presentBound(
                "/v1/me", token: token,
                proof: try key.proof("GET", "http://other.example/v1/me", now: now, accessToken: token),
                host: "other.example")
            #expect(claimedHost.status == 401, "\(claimedHost.text)")
            #expect(claimedHost.reasons == ["wrong_htu"])

            // The same through a trusted proxy's forwarded scheme and host: the client's claim, passed on.
            let forwarded = try await server.presentBound(
                "/v1/me", token: token,
                proof: try key.proof("GET", "https://other.example/v1/me", now: now, accessToken: token),
                headers: [("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "other.example")])
            #expect(forwarded.status == 401, "\(forwarded.text)")
            #expect(forwarded.reasons == ["wrong_htu"])

            // At the token endpoint too.
            let grant = try await server.send(
                .POST, "/v1/token",
                json: [
                    "grant_type": "password", "email": "alice@example.com", "password": "Correct-Horse-9",
                    "device": TestServer.testDevice
                ],
                headers: [
                    ("Host", "other.example"),
                    ("DPoP", try key.proof("POST", "http://other.example/v1/token", now: now))
                ])
            #expect(grant.status == 400, "\(grant.text)")
            #expect(grant.reasons == ["wrong_htu"])

            // latchd's own public origin (its issuer, http://latch.test) is accepted whatever the Host says.
            let issuer = try await server.getBound(
                "/v1/me", token: token, key: key,
                proof: try key.proof("GET", "http://latch.test/v1/me", now: now, accessToken: token))
            #expect(issuer.status == 200, "\(issuer.text)")
        }
    }

    @Test("41 §2 D1 LATCH_PUBLIC_ORIGINS adds origins a proof may name; in production a loopback Host is no origin")
    func D1_publicOriginsAreTheOnlyOthers() async throws {
        let clock = TestClock()
        let development = try await TestServer.start(.sqlite, clock: clock)
        let production = try await TestServer.start(
            .sqlite, clock: clock, sharing: development.location, secretKey: development.secretKey, production: true
        ) { $0.publicOrigins = ["https://api.example.com", "https://auth.example.com:8443"] }
        defer {
            Task {
                try? await development.stop(); try? await production.stop()
            }
        }
        try await development.signUp()
        let key = TestDPoPKey()
        let token = try await development.signIn(boundTo: key).decode(TokenResponse.self).accessToken
        let now = clock.now

        for origin in ["https://api.example.com", "https://AUTH.example.com:8443", "http://latch.test"] {
            let named = try key.proof("GET", origin + "/v1/me", now: now, accessToken: token)
            let answer = try await production.getBound("/v1/me", token: token, key: key, proof: named)
            #expect(answer.status == 200, "\(origin): \(answer.text)")
        }
        for origin in [production.baseURL, "https://auth.example.com", "http://api.example.com"] {
            let named = try key.proof("GET", origin + "/v1/me", now: now, accessToken: token)
            let answer = try await production.getBound("/v1/me", token: token, key: key, proof: named)
            #expect(answer.reasons == ["wrong_htu"], "\(origin): \(answer.text)")
        }
        // In development, the loopback address latchd is reached at also names it (the CLI, tests).
        #expect(try await development.getBound("/v1/me", token: token, key: key).status == 200)
    }

    @Test("41 §2 D1 LATCH_PUBLIC_ORIGINS is read strictly: comma-separated http(s) origins, no path")
    func D1_publicOriginsConfiguration() throws {
        let key = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        let plain = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key])
        #expect(plain.publicOrigins.isEmpty)
        let set = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": key, "LATCH_PUBLIC_ORIGINS": "https://api.example.com, https://Auth.Example.com:8443/"
        ])
        #expect(set.publicOrigins == ["https://api.example.com", "https://auth.example.com:8443"])
        for bad in ["api.example.com", "https://api.example.com/v1", "ftp://api.example.com", "https://", ","] {
            let error = try #require(throws: ConfigurationError.self) {
                try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key, "LATCH_PUBLIC_ORIGINS": bad])
            }
            #expect("\(error)".contains("LATCH_PUBLIC_ORIGINS"), "\(bad)")
        }
    }

    @Test(
        "41 §2 D2 with nonces on, a resource proof used at one instance is refused at another on the same database",
        arguments: TestDatabase.all)
    func D2_replayAtAnotherInstanceIsRefused(database: TestDatabase) async throws {
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
        let token = try await first.signInWithNonce(boundTo: key)

        // A proof for latchd's public origin (both instances serve it), with the first instance's nonce.
        let captured = try key.proof(
            "GET", "http://latch.test/v1/me", now: clock.now, accessToken: token,
            nonce: try await first.resourceNonce(token: token, key: key))
        let used = try await first.presentBound("/v1/me", token: token, proof: captured, host: "latch.test")
        #expect(used.status == 200, "\(used.text)")

        let replayed = try await second.presentBound("/v1/me", token: token, proof: captured, host: "latch.test")
        #expect(replayed.status == 401, "\(replayed.text)")
        #expect(replayed.errorCode == "USE_DPOP_NONCE")
        #expect(replayed.headers.first(name: "DPoP-Nonce") != nil)
    }

    @Test(
        "41 §2 D2 with nonces on, a restart invalidates every outstanding nonce, so a used proof stays used",
        arguments: TestDatabase.all)
    func D2_replayAfterRestartIsRefused(database: TestDatabase) async throws {
        let clock = TestClock()
        let nonces: (inout LatchConfig) -> Void = { $0.dpopNonces = true }
        let before = try await TestServer.start(database, clock: clock, adjust: nonces)
        try await before.signUp()
        let key = TestDPoPKey()
        let token = try await before.signInWithNonce(boundTo: key)
        let captured = try key.proof(
            "GET", "http://latch.test/v1/me", now: clock.now, accessToken: token,
            nonce: try await before.resourceNonce(token: token, key: key))
        let used = try await before.presentBound("/v1/me", token: token, proof: captured, host: "latch.test")
        #expect(used.status == 200, "\(used.text)")
        try await before.stop()

        let after = try await TestServer.start(
            database, clock: clock, sharing: before.location, secretKey: before.secretKey, adjust: nonces)
        defer { Task { try? await after.stop() } }
        let replayed = try await after.presentBound("/v1/me", token: token, proof: captured, host: "latch.test")
        #expect(replayed.status == 401, "\(replayed.text)")
        #expect(replayed.errorCode == "USE_DPOP_NONCE")
    }

    @Test("41 §2 D2 a nonce lives at least a minute and at most two, well under a proof's 300 s window")
    func D2_nonceLifetimeIsBounded() async throws {
        let clock = TestClock()
        try await withServer(.sqlite, clock: clock, adjust: { $0.dpopNonces = true }) { server in
            try await server.signUp()
            let key = TestDPoPKey()
            let token = try await server.signInWithNonce(boundTo: key)
            let nonce = try await server.resourceNonce(token: token, key: key)

            clock.advance(by: 59)
            let fresh = try key.proof(
                "GET", server.baseURL + "/v1/me", now: clock.now, accessToken: token, nonce: nonce)
            #expect(try await server.getBound("/v1/me", token: token, key: key, proof: fresh).status == 200)

            clock.advance(by: 62)
            let late = try key.proof("GET", server.baseURL + "/v1/me", now: clock.now, accessToken: token, nonce: nonce)
            let refused = try await server.getBound("/v1/me", token: token, key: key, proof: late)
            #expect(refused.errorCode == "USE_DPOP_NONCE", "121 s after it was handed out: \(refused.text)")
            #expect(121 < DPoPProof.maximumAge)
        }
    }

    @Test("41 §3 strict JSON reaches DPoP proofs: a header or claim named twice is a malformed proof, even when signed")
    func test_41_3_proofWithDuplicateMembers() throws {
        let key = P256.Signing.PrivateKey()
        let valid = try DPoPProofTests.proof(key: key)
        #expect(DPoPProofTests.failure(valid) == nil)
        let parts = valid.split(separator: ".").map(String.init)
        let claims = String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self)
        // The same claims with `htu` named a second time, for another origin, and signed again.
        let doubled = claims.dropLast() + #","htu":"https://other.example/v1/token"}"#
        let encoded = Base64URL.encode(Data(doubled.utf8))
        let signature = try key.signature(for: Data("\(parts[0]).\(encoded)".utf8)).rawRepresentation
        #expect(DPoPProofTests.failure("\(parts[0]).\(encoded).\(Base64URL.encode(signature))") == .malformed)
    }
}

extension TestServer {
    /// Signs in with a password, binding the session to `key`, asking for this instance's nonce first
    /// (`LATCH_DPOP_NONCE=1`); the access token.
    func signInWithNonce(boundTo key: TestDPoPKey) async throws -> String {
        let asked = try await signIn(boundTo: key)
        try #require(asked.errorCode == "USE_DPOP_NONCE", "\(asked.text)")
        let nonce = try #require(asked.headers.first(name: "DPoP-Nonce"))
        let body: [String: Any] = [
            "grant_type": "password", "email": "alice@example.com", "password": "Correct-Horse-9",
            "device": TestServer.testDevice
        ]
        let signedIn = try await send(
            .POST, "/v1/token", json: body,
            headers: [("DPoP", try key.proof("POST", baseURL + "/v1/token", now: clock.now, nonce: nonce))])
        try #require(signedIn.status == 200, "\(signedIn.text)")
        return try signedIn.decode(TokenResponse.self).accessToken
    }

    /// The nonce this instance hands out to a resource request (asked for with a proof without one).
    func resourceNonce(token: String, key: TestDPoPKey) async throws -> String {
        let asked = try await getBound("/v1/me", token: token, key: key)
        try #require(asked.errorCode == "USE_DPOP_NONCE", "\(asked.text)")
        return try #require(asked.headers.first(name: "DPoP-Nonce"))
    }

    /// `GET path` with a DPoP-bound `token`, exactly `proof`, and the headers given (`Host`, forwarded ones).
    func presentBound(
        _ path: String, token: String, proof: String, host: String? = nil, headers extra: [(String, String)] = []
    ) async throws -> TestResponse {
        var headers = [("Authorization", "DPoP \(token)"), ("DPoP", proof)] + extra
        if let host { headers.append(("Host", host)) }
        return try await send(.GET, path, headers: headers)
    }

}
