import Foundation
import LatchTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 12 §3 with the real latchd binary: graceful shutdown on SIGTERM, JSON logs, the metrics listener.
@Suite("latchd operations (issue 12 §3)", .serialized, .timeLimit(.minutes(10)))
struct OperationsTests {
    @Test("test_12_sigtermLetsTheInFlightRequestFinishThenExits0: new connections are refused meanwhile")
    func test_12_sigtermLetsTheInFlightRequestFinishThenExits0() async throws {
        // A registration hashes its password with bcrypt: at this cost it takes a second or more here.
        let cost = try await Self.bcryptCost(takingAtLeast: 1500)
        let metricsPort = try Latchd.freePort()
        let environment = [
            "LATCH_BCRYPT_COST": String(cost), "LATCH_SHUTDOWN_GRACE_SECONDS": "60",
            "LATCH_METRICS_PORT": String(metricsPort)
        ]
        try await withLatchd(environment: environment) { server in
            var request = URLRequest(url: server.url.appendingPathComponent("v1/registrations"))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(
                #"{"email":"slow@example.com","password":"Correct-Horse-9","terms_accepted":true}"#.utf8)
            request.timeoutInterval = 120
            let slow = Task { try await URLSession.shared.data(for: request) }
            // The request is in when its bcrypt hash holds a place in the queue (not "after 400 ms",
            // which a loaded machine may not have reached: issue 22 §8). The metrics listener starts beside
            // the main one, not before it: a refused connection is asked again, not an error.
            let inBcrypt = try await eventually {
                ((try? await Self.bcryptQueueDepth(metricsPort: metricsPort)) ?? 0) >= 1
            }
            try #require(inBcrypt, "the registration never reached bcrypt")

            let signalled = ContinuousClock.now
            server.process.terminate()
            // latchd stops listening when it gets the signal; when that is depends on the machine.
            let refusesNewConnections = try await eventually {
                (try? await URLSession.shared.data(from: server.url.appendingPathComponent("health"))) == nil
            }
            let (body, response) = try await slow.value
            let status = await server.process.exited()
            let took = ContinuousClock.now - signalled

            #expect((response as? HTTPURLResponse)?.statusCode == 202, "\(String(decoding: body, as: UTF8.self))")
            #expect(refusesNewConnections, "no new connection is taken once the signal arrived")
            #expect(status == 0, "exit status")
            #expect(took < .seconds(60), "within the grace")
        }
    }

    @Test("test_12_jsonLogsAreOneObjectPerLineWithTheRequestID")
    func test_12_jsonLogsAreOneObjectPerLineWithTheRequestID() async throws {
        try await withLatchd(environment: ["LATCH_LOG_FORMAT": "json", "LATCH_LOG_REQUESTS": "true"]) { server in
            var request = URLRequest(url: server.url.appendingPathComponent("health"))
            request.setValue("ops-test-4711", forHTTPHeaderField: "X-Request-Id")
            _ = try await URLSession.shared.data(for: request)
            server.process.terminate()
            #expect(await server.process.exited() == 0)

            let lines = try String(contentsOf: server.log, encoding: .utf8).split(separator: "\n").filter {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
            let objects = lines.map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(
                !lines.isEmpty && objects.allSatisfy { $0 != nil },
                "every line is a JSON object:\n\(lines.joined(separator: "\n"))")
            #expect(
                objects.allSatisfy { object in
                    ["timestamp", "level", "label", "message"].allSatisfy { object?[$0] is String }
                })
            #expect(
                objects.contains {
                    $0?["request_id"] as? String == "ops-test-4711"
                        && ($0?["message"] as? String)?.contains("/health") == true
                },
                "the request's line carries its id")
        }
    }

    @Test("test_12_latchdServesMetricsOnItsOwnPortAndStopsThemWithItself")
    func test_12_latchdServesMetricsOnItsOwnPortAndStopsThemWithItself() async throws {
        let metricsPort = try Latchd.freePort()
        try await withLatchd(environment: ["LATCH_METRICS_PORT": String(metricsPort)]) { server in
            _ = try await URLSession.shared.data(from: server.url.appendingPathComponent("health"))
            let metricsURL = URL(string: "http://127.0.0.1:\(metricsPort)/metrics")!
            let (body, response) = try await URLSession.shared.data(from: metricsURL)
            let text = String(decoding: body, as: UTF8.self)

            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let healthLine = text.split(separator: "\n").first {
                $0.hasPrefix(#"latch_http_requests_total{method="GET",route="/health",status="200"} "#)
            }
            let healthCount = healthLine.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
            #expect(healthCount >= 2, "the start-up probes and this request: \(text)")
            server.process.terminate()
            #expect(await server.process.exited() == 0)
            #expect((try? await URLSession.shared.data(from: metricsURL)) == nil, "the listener ended with latchd")
        }
    }

    /// `latch_bcrypt_queue_depth` from latchd's metrics listener: password hashes running or waiting.
    static func bcryptQueueDepth(metricsPort: Int) async throws -> Double {
        let url = URL(string: "http://127.0.0.1:\(metricsPort)/metrics")!
        let text = String(decoding: try await URLSession.shared.data(from: url).0, as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix("latch_bcrypt_queue_depth ") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
    }

    /// The bcrypt cost at which one check takes at least `milliseconds` here (`latchd bcrypt-time`).
    static func bcryptCost(takingAtLeast milliseconds: Double) async throws -> Int {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-bcrypt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ProcessInfo.processInfo.environment.merging([
            "LATCH_BCRYPT_COST": "10",
            "LATCH_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("l.sqlite").path,
            "LATCH_SECRET_KEY": Data(repeating: 3, count: 32).base64EncodedString()
        ]) { $1 }
        let timing = try await Latchd.run(["bcrypt-time"], environment: environment, directory: folder)
        #expect(timing.status == 0, "\(timing)")
        let output = timing.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let atTen = try #require(Double(output), "bcrypt-time printed \(output)")
        // Each step of cost doubles the time.
        return min(20, 10 + max(0, Int((log2(milliseconds / max(atTen, 0.1))).rounded(.up))))
    }
}
