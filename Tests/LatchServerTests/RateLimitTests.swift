import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 10 §3: per-client and global token buckets on the unauthenticated endpoints, charged before
/// any bcrypt or database work, answering 429 RATE_LIMITED with `retry_after` and `Retry-After`,
/// refilling with the (injected) clock, and bounded in memory.
@Suite("Rate limits on the unauthenticated endpoints (issue 10 §3)")
struct RateLimitTests {
    static let tight = TokenRate(perSecond: 1, burst: 2)
    static let wide = TokenRate(perSecond: 1000, burst: 1000)

    /// The generous test limits with `rule` for every action.
    static func limits(_ rule: RateLimitRule, maximumTrackedClients: Int = 100_000) -> RateLimits {
        RateLimits(
            signIn: rule, refresh: rule, registration: rule, codeCheck: rule, codeSend: rule, deviceChallenge: rule,
            adminAuth: rule, approval: rule, maximumTrackedClients: maximumTrackedClients)
    }

    // MARK: The limiter

    @Test("issue 10 §3: a client gets its burst, then waits for the refill; others are not affected")
    func test_10_bucketBurstThenRefill() {
        let limiter = RateLimiter(
            limits: Self.limits(RateLimitRule(perClient: TokenRate(perSecond: 0.5, burst: 3), global: Self.wide)))

        let burst = (0..<3).map { _ in limiter.admit(.signIn, client: "a", now: 100) }
        let fourth = limiter.admit(.signIn, client: "a", now: 100)
        let other = limiter.admit(.signIn, client: "b", now: 100)
        let otherAction = limiter.admit(.codeSend, client: "a", now: 100)
        let afterOneSecond = limiter.admit(.signIn, client: "a", now: 101)
        let afterTwoSeconds = limiter.admit(.signIn, client: "a", now: 102)

        #expect(burst == [nil, nil, nil])
        #expect(fourth == 2, "one token comes back every 2 s")
        #expect(other == nil && otherAction == nil, "each client and each action has its own bucket")
        #expect(afterOneSecond == 1, "half a token is not one")
        #expect(afterTwoSeconds == nil)
    }

    @Test("issue 10 §3: the global bucket refuses every client once all of them together used it up")
    func test_10_globalBucket() {
        let limiter = RateLimiter(
            limits: Self.limits(RateLimitRule(perClient: Self.wide, global: TokenRate(perSecond: 10, burst: 5))))

        let admitted = (0..<5).map { limiter.admit(.registration, client: "client-\($0)", now: 0) }
        let sixth = limiter.admit(.registration, client: "client-new", now: 0)
        let later = limiter.admit(.registration, client: "client-new", now: 0.1)

        #expect(admitted.allSatisfy { $0 == nil })
        #expect(sixth == 1)
        #expect(later == nil)
    }

    @Test("issue 10 §3: a refused request takes no token from either bucket")
    func test_10_refusalTakesNothing() {
        let limiter = RateLimiter(
            limits: Self.limits(
                RateLimitRule(perClient: TokenRate(perSecond: 1, burst: 1), global: TokenRate(perSecond: 1, burst: 2))))

        #expect(limiter.admit(.signIn, client: "a", now: 0) == nil)
        for _ in 0..<10 { #expect(limiter.admit(.signIn, client: "a", now: 0) != nil) }
        // a's refusals took nothing from the global bucket, so b still gets its one.
        #expect(limiter.admit(.signIn, client: "b", now: 0) == nil)
    }

    @Test("issue 10 §3: client buckets stay bounded in memory; idle ones go first")
    func test_10_bucketsAreBounded() {
        let limiter = RateLimiter(
            limits: Self.limits(
                RateLimitRule(perClient: TokenRate(perSecond: 1, burst: 2), global: Self.wide),
                maximumTrackedClients: 100))

        // An attacker with many addresses: the map never grows past the bound.
        for n in 0..<10_000 { _ = limiter.admit(.signIn, client: "flood-\(n)", now: Double(n) / 1000) }
        #expect(limiter.trackedClients <= 100)

        // A busy client survives the sweep of idle ones: its empty bucket is still remembered.
        let quiet = RateLimiter(
            limits: Self.limits(
                RateLimitRule(perClient: TokenRate(perSecond: 1, burst: 2), global: Self.wide),
                maximumTrackedClients: 10))
        for n in 0..<9 { _ = quiet.admit(.signIn, client: "idle-\(n)", now: 0) }
        _ = quiet.admit(.signIn, client: "busy", now: 50)
        _ = quiet.admit(.signIn, client: "busy", now: 50)
        _ = quiet.admit(.signIn, client: "newcomer", now: 50) // the 11th: the 9 idle ones (full again) are dropped
        #expect(quiet.trackedClients == 2)
        #expect(quiet.admit(.signIn, client: "busy", now: 50) != nil, "busy's bucket was kept, still empty")
    }

    @Test(
        "issue 10 §3: LATCH_RATE_LIMIT_SCALE scales the standard limits; LATCH_BCRYPT_QUEUE sets the bound; bad values name the variable"
    )
    func test_10_rateLimitConfiguration() throws {
        let key = Data(repeating: 1, count: 32).base64EncodedString()
        let standard = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key])
        #expect(standard.rateLimits == .standard)
        #expect(standard.bcryptQueueLimit == 4 * ProcessInfo.processInfo.activeProcessorCount)
        let scaled = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": key, "LATCH_RATE_LIMIT_SCALE": "10", "LATCH_BCRYPT_QUEUE": "64"
        ])
        #expect(scaled.rateLimits.signIn.perClient == TokenRate(perSecond: 100, burst: 200))
        #expect(scaled.bcryptQueueLimit == 64)
        for (variable, bad) in [
            ("LATCH_RATE_LIMIT_SCALE", "0"), ("LATCH_RATE_LIMIT_SCALE", "lots"), ("LATCH_RATE_LIMIT_SCALE", "nan"),
            ("LATCH_BCRYPT_QUEUE", "0"), ("LATCH_BCRYPT_QUEUE", "many")
        ] {
            do {
                _ = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key, variable: bad])
                Issue.record("\(variable)=\(bad) was accepted")
            } catch let error as ConfigurationError {
                #expect(error.variable == variable)
            }
        }
    }

    // MARK: Through HTTP

    /// One request of each priced endpoint that passes validation, so only the limit can refuse it.
    /// (Bodies vary by `n` where the endpoint's own per-address limits would otherwise answer 429 first.)
    static let pricedRequests: [(RateLimitedAction, String, @Sendable (Int) -> [String: Any])] = [
        (
            .signIn, "/v1/token",
            { _ in ["grant_type": "password", "email": "alice@example.com", "password": "Wrong-Horse-9"] }
        ),
        (.refresh, "/v1/token", { _ in ["grant_type": "refresh_token", "refresh_token": "not-a-token"] }),
        (
            .registration, "/v1/registrations",
            { n in ["email": "bob\(n)@example.com", "password": "Correct-Horse-9", "terms_accepted": true] }
        ),
        (.codeCheck, "/v1/registrations/\(UUID().uuidString)/verify", { _ in ["code": "123456"] }),
        (
            .codeCheck, "/v1/password/reset",
            { _ in ["email": "alice@example.com", "code": "123456", "new_password": "Brand-New-Pass-7"] }
        ),
        (.codeSend, "/v1/password/forgot", { _ in ["email": "alice@example.com"] }),
        (.codeSend, "/v1/sms/codes", { n in ["phone": "+861380013800\(n)"] }),
        (.deviceChallenge, "/v1/device-credentials/\(UUID().uuidString)/challenges", { _ in [:] }),
        (.adminAuth, "/v1/admin/users/\(UUID().uuidString)/unlock", { _ in [:] }),
        (.deviceChallenge, "/v1/passkeys/authentication/options", { _ in [:] }),
        (.approval, "/v1/approvals", { n in ["kind": "sign_in", "device": ["id": "web-\(n)"]] })
    ]

    @Test(
        "issue 10 §3: every priced endpoint answers 429 RATE_LIMITED with retry_after and Retry-After over its per-client limit",
        arguments: TestDatabase.all)
    func test_10_everyPricedEndpointIsLimited(database: TestDatabase) async throws {
        let clock = TestClock()
        // Every action gets a burst of 2 and one token a second; each action's bucket is its own.
        try await withServer(
            database, clock: clock,
            adjust: {
                $0.rateLimits = Self.limits(RateLimitRule(perClient: Self.tight, global: Self.wide))
            }
        ) { server in
            for action in RateLimitedAction.allCases {
                let endpoints = Self.pricedRequests.filter { $0.0 == action }
                let first = try #require(endpoints.first), last = try #require(endpoints.last)
                let allowed = [
                    try await server.send(.POST, first.1, json: first.2(1)),
                    try await server.send(.POST, last.1, json: last.2(2))
                ]
                let refused = try await server.send(.POST, last.1, json: last.2(3))
                clock.advance(by: 1)
                let afterRefill = try await server.send(.POST, first.1, json: first.2(4))

                for response in allowed + [afterRefill] {
                    #expect(response.status != 429, "\(action): \(response.text)")
                }
                #expect(
                    refused.status == 429 && refused.errorCode == "RATE_LIMITED",
                    "\(action) \(last.1): \(refused.status) \(refused.text)")
                #expect(refused.errorBody?.retryAfter == 1, "\(action): \(refused.text)")
                #expect(refused.headers.first(name: "Retry-After") == "1", "\(action)")
            }
        }
    }

    @Test(
        "issue 10 §3: a rate-limited sign-in is refused before bcrypt and before the lockout counts it",
        arguments: TestDatabase.all)
    func test_10_limitedBeforeBcrypt(database: TestDatabase) async throws {
        try await withServer(
            database,
            adjust: {
                $0.rateLimits.signIn = RateLimitRule(perClient: TokenRate(perSecond: 1, burst: 3), global: Self.wide)
            }
        ) { server in
            try await server.signUp()
            let checksBefore = server.app.latch.passwordChecksPerformed

            var statuses: [UInt] = []
            for _ in 0..<10 { statuses.append(try await server.signIn(password: "Wrong-Horse-9").status) }
            let checks = server.app.latch.passwordChecksPerformed - checksBefore

            #expect(statuses == [401, 401, 401] + Array(repeating: 429, count: 7), "\(statuses)")
            #expect(checks == 3, "only the admitted attempts ran bcrypt")
        }
    }

    @Test(
        "issue 10 §3: behind a trusted proxy each forwarded client has its own bucket, and all share the global one",
        arguments: TestDatabase.all)
    func test_10_bucketsPerForwardedClient(database: TestDatabase) async throws {
        try await withServer(
            database,
            adjust: {
                $0.trustedProxies = TrustedProxies(parsing: "127.0.0.1")!
                $0.rateLimits.codeSend = RateLimitRule(
                    perClient: TokenRate(perSecond: 1, burst: 1), global: TokenRate(perSecond: 1, burst: 4))
            }
        ) { server in
            func forgot(from client: String) async throws -> UInt {
                try await server.send(
                    .POST, "/v1/password/forgot", json: ["email": "nobody@example.com"],
                    headers: [("X-Forwarded-For", client)]
                ).status
            }
            let first = try await forgot(from: "203.0.113.1")
            let again = try await forgot(from: "203.0.113.1")
            let spoofedLeft = try await forgot(from: "198.51.100.99, 203.0.113.1")
            let otherClient = try await forgot(from: "203.0.113.2")
            let sameSixtyFour = try await forgot(from: "2001:db8:1:2::1")
            let sameSixtyFourAgain = try await forgot(from: "2001:db8:1:2::ffff")
            let fourthClient = try await forgot(from: "2001:db8:1:3::1")
            let fifthClient = try await forgot(from: "203.0.113.5")

            #expect(first == 202 && again == 429)
            #expect(spoofedLeft == 429, "a made-up address on the left changes nothing")
            #expect(otherClient == 202 && sameSixtyFour == 202)
            #expect(sameSixtyFourAgain == 429, "an IPv6 /64 is one client")
            #expect(fourthClient == 202)
            #expect(fifthClient == 429, "the global bucket (4) is used up")
        }
    }
}
