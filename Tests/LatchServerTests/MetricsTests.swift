import Foundation
import LatchCore
import LatchTestSupport
import Logging
import NIOCore
import NIOHTTP1
import Prometheus
import Testing

@testable import LatchServer

/// Issue 12 §3: Prometheus metrics on their own listener (`LATCH_METRICS_PORT`), off by default.
@Suite("Metrics (issue 12 §3)")
struct MetricsTests {
    @Test("test_12_metricsCountRequestsByRouteTemplateSignInsVerificationsLocksAndReuse", arguments: TestDatabase.all)
    func test_12_metricsCountRequestsByRouteTemplateSignInsVerificationsLocksAndReuse(database: TestDatabase)
        async throws
    {
        try await withServer(database, adjust: { $0.metricsPort = 0 }) { server in
            // Set-up: an account with a fund password.
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)

            // Act: sign-ins (one right, one wrong), a route with an id, a path no route matches,
            // step-ups (one wrong, one right), a refresh-token replay, and a locked account.
            #expect(try await server.signIn().status == 200)
            #expect(try await server.signIn(password: "Wrong-Horse-9").status == 401)
            let unknownSession = UUID().uuidString.lowercased()
            #expect(
                try await server.send(.DELETE, "/v1/sessions/\(unknownSession)", bearer: tokens.accessToken).status
                    == 404)
            #expect(try await server.send(.GET, "/no/such/\(unknownSession)").status == 404)
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            let wrong = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .fundPassword, fundPassword: "135799"),
                bearer: tokens.accessToken)
            #expect(wrong.status == 400)
            _ = try await server.verificationToken(bearer: tokens.accessToken)
            let rotated = try await server.refresh(tokens.refreshToken)
            #expect(rotated.status == 200)
            server.clock.advance(by: 11) // past the grace window: the old token is a replay
            #expect(try await server.refresh(tokens.refreshToken).status == 401)
            try await server.signUp("bob@example.com")
            var lockStatus: UInt = 0
            for _ in 0..<5 { lockStatus = try await server.signIn("bob@example.com", password: "Wrong-Horse-9").status }
            #expect(lockStatus == 423, "the fifth wrong password starts a lock")

            let metrics = try await server.scrape()

            // Requests by route template and status, never the raw path.
            #expect(
                metrics.value(
                    "latch_http_requests_total", ["method": "DELETE", "route": "/v1/sessions/:id", "status": "404"])
                    == 1)
            #expect(
                metrics.value("latch_http_requests_total", ["method": "*", "route": "unmatched", "status": "404"]) == 1)
            #expect(!metrics.text.contains(unknownSession), "no raw id in any label")
            #expect(!metrics.text.contains("alice@example.com") && !metrics.text.contains("bob@example.com"))
            let tokenRequests = metrics.all("latch_http_requests_total", ["method": "POST", "route": "/v1/token"]).map(
                \.value
            ).reduce(0, +)
            #expect(tokenRequests == 9, "9 POST /v1/token: 7 password grants, 2 refresh grants")
            #expect(
                metrics.value("latch_http_request_duration_seconds_count", ["method": "POST", "route": "/v1/token"])
                    == tokenRequests,
                "one latency sample per request")
            #expect(
                metrics.all("latch_http_request_duration_seconds_bucket", ["route": "/v1/token"]).count > 1,
                "a histogram")

            // Sign-ins by grant and outcome.
            #expect(metrics.value("latch_sign_ins_total", ["method": "password", "outcome": "succeeded"]) == 1)
            #expect(metrics.value("latch_sign_ins_total", ["method": "password", "outcome": "wrongCredentials"]) == 5)
            #expect(metrics.value("latch_sign_ins_total", ["method": "password", "outcome": "locked"]) == 1)
            #expect(metrics.value("latch_sign_ins_total", ["method": "refresh_token", "outcome": "succeeded"]) == 1)
            #expect(
                metrics.value("latch_sign_ins_total", ["method": "refresh_token", "outcome": "sessionExpired"]) == 1)

            // Step-ups by method and outcome; locks; refresh-token reuse; live gauges.
            #expect(
                metrics.value("latch_verifications_total", ["method": "fund_password", "outcome": "wrongCode"]) == 1)
            #expect(metrics.value("latch_verifications_total", ["method": "fund_password", "outcome": "passed"]) == 1)
            #expect(metrics.value("latch_locks_total", ["secret": "email"]) == 1)
            #expect(metrics.value("latch_refresh_token_reuse_total") == 1)
            #expect(metrics.value("latch_bcrypt_queue_depth") == 0)
            #expect(metrics.value("latch_database_up") == 1)
            // Issue 44 §4: the prepared SQLite connections' hand-offs to a pool thread and their checkpoints are
            // counted on SQLite (whether any happened depends on timing: only that they are there) and absent
            // on PostgreSQL, which has no such connections.
            if case .sqlite = database {
                #expect(try #require(metrics.value("latch_sqlite_hand_offs_total")) >= 0)
                #expect(try #require(metrics.value("latch_sqlite_checkpoints_total")) >= 0)
            } else {
                #expect(metrics.value("latch_sqlite_hand_offs_total") == nil)
            }
            let wait = try #require(metrics.value("latch_database_connection_wait_seconds"))
            // Measured at the scrape (a connection taken from the pool): a time, not a bound on it — under the
            // whole suite's load on 2 cores it has passed 5 s (issue 22 §8: no timed assertions).
            #expect(wait >= 0 && wait.isFinite)
        }
    }

    @Test("test_12_spentGuessBudgetIsCountedAsExhaustedAndAsALock", arguments: TestDatabase.all)
    func test_12_spentGuessBudgetIsCountedAsExhaustedAndAsALock(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.metricsPort = 0 }) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            // 10 wrong fund passwords a day spend the budget (the 1-hour ladder lock in between is waited out).
            for attempt in 1...10 {
                let started = try await server.startedVerification(bearer: tokens.accessToken)
                _ = try await server.attempt(
                    started.verificationId, VerificationAttempt(method: .fundPassword, fundPassword: "135799"),
                    bearer: tokens.accessToken)
                if attempt == 5 { server.clock.advance(by: 3601) }
            }

            let metrics = try await server.scrape()

            #expect(metrics.value("latch_guess_budgets_exhausted_total", ["secret": "fund"]) == 1)
            #expect(
                metrics.value("latch_locks_total", ["secret": "fund"]) == 2,
                "the ladder's lock at 5, the budget's at 10")
        }
    }

    @Test("test_12_metricsAreOffByDefault: no listener, no request series")
    func test_12_metricsAreOffByDefault() async throws {
        let config = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": Data(repeating: 1, count: 32).base64EncodedString()
        ])
        #expect(config.metricsPort == nil)
        try await withServer(.sqlite) { server in
            let health = try await server.send(.GET, "/health")
            #expect(health.status == 200)
            #expect(server.app.metricsPort == nil, "nothing listens")
            #expect(!server.app.latchMetrics.isEnabled)
            #expect(await server.app.latchMetrics.scrape().isEmpty)
        }
    }

    @Test("test_12_metricsListenerAnswersOnlyGetMetrics: other paths 404, other methods 405")
    func test_12_metricsListenerAnswersOnlyGetMetrics() async throws {
        try await withServer(.sqlite, adjust: { $0.metricsPort = 0 }) { server in
            let port = try #require(server.app.metricsPort)
            let base = "http://127.0.0.1:\(port)"
            #expect(try await TestHTTP.get(base + "/health").status == .notFound)
            #expect(try await TestHTTP.post(base + "/metrics").status == .methodNotAllowed)
            #expect(try await TestHTTP.get(base + "/metrics?x=1").status == .ok)
            #expect(
                try await server.send(.GET, "/metrics").status == 404, "the API's listener does not serve the metrics")
        }
    }

    @Test("test_12_metricsListenerStopsWithTheServer")
    func test_12_metricsListenerStopsWithTheServer() async throws {
        let server = try await TestServer.start(.sqlite, adjust: { $0.metricsPort = 0 })
        let port = try #require(server.app.metricsPort)
        _ = try await server.scrape()
        #expect(LoopbackPort.isListening(port))
        try await server.stop()
        #expect(server.app.metricsPort == nil, "the listener is gone")
        // Nothing serves the metrics there any more. (Asked over HTTP rather than "is anything
        // listening": in the full suite another test's server may be given the freed port at once.)
        // A refused connection is tried again until the request gives up: after 3 s, not the default 180 (the
        // test took 60 s, the client's connect timeout, and was the whole suite's longest).
        let after = try? await TestHTTP.get("http://127.0.0.1:\(port)/metrics", giveUpAfter: .seconds(3))
        let body = after?.body.map { String(buffer: $0) } ?? ""
        #expect(after?.status != .ok || !body.contains("latch_"), "the listener stopped with the server")
    }

    @Test("test_12_deliveriesAreCountedByChannelAndResult: sent, retried, failed, and the queue depth")
    func test_12_deliveriesAreCountedByChannelAndResult() async throws {
        let metrics = LatchMetrics(registry: .init())
        // 4 refusals (the quick policy's 4 attempts: the first SMS fails), then the gateway takes the second.
        let gateway = try await WebhookStandIn.start(answering: [502, 502, 502, 502])
        let queue = DeliveryQueue(
            channel: "sms", policy: SMTPClientTests.quick, logger: Logger(label: "test"),
            metrics: DeliveryMetrics(channel: "sms", metrics: metrics))
        DeliveryMetrics.sampleDepth(of: queue, channel: "sms", metrics: metrics)
        let delivery = SMSWebhookDelivery(url: gateway.url, http: .shared, queue: queue)

        try await delivery.deliver(SMSWebhookTests.sms())
        let whileQueued = PrometheusText(String(decoding: await metrics.scrape(), as: UTF8.self))
        await queue.waitUntilIdle()
        try await delivery.deliver(SMSWebhookTests.sms())
        await queue.waitUntilIdle()
        let scraped = PrometheusText(String(decoding: await metrics.scrape(), as: UTF8.self))
        try await gateway.stop()

        #expect(whileQueued.value("latch_delivery_queue_depth", ["channel": "sms"]) == 1)
        #expect(scraped.value("latch_deliveries_total", ["channel": "sms", "result": "retried"]) == 3)
        #expect(scraped.value("latch_deliveries_total", ["channel": "sms", "result": "failed"]) == 1)
        #expect(scraped.value("latch_deliveries_total", ["channel": "sms", "result": "sent"]) == 1)
        #expect(scraped.value("latch_deliveries_total", ["channel": "sms", "result": "refused"]) == 0)
        #expect(scraped.value("latch_delivery_queue_depth", ["channel": "sms"]) == 0)
    }
}
