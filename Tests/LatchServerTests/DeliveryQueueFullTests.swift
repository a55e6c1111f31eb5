import Foundation
import LatchCore
@testable import LatchServer
import Logging
import Synchronization
import Testing
import Vapor

/// Issue 10 §3: the delivery queue never drops a message silently. When it is full, the message is
/// refused and counted, and the request that wanted it sent answers 503 (INTERNAL_ERROR, `reasons`
/// `["delivery_queue_full"]`, `retry_after`).
@Suite("A full delivery queue answers 503 (issue 10 §3)")
struct DeliveryQueueFullTests {
    /// Sends that wait until released.
    final class Gate: Sendable {
        private let released = Mutex(false)
        let started = Atomic<Int>(0)

        func pass() async {
            started.add(1, ordering: .relaxed)
            while !released.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
        }

        func release() { released.withLock { $0 = true } }
    }

    @Test("issue 10 §3: a full queue refuses the message with 503 delivery_queue_full and counts it")
    func test_10_fullQueueRefusesAndCounts() async throws {
        let queue = DeliveryQueue(
            channel: "sms", policy: SMTPClientTests.quick, logger: Logger(label: "test"), concurrency: 1, capacity: 1)
        let gate = Gate()
        let sent = Atomic<Int>(0)
        let send: DeliveryQueue.Send = {
            await gate.pass()
            sent.add(1, ordering: .relaxed)
        }

        try await queue.enqueue(send)  // sending (held at the gate)
        try await queue.enqueue(send)  // waiting: the queue is now full
        var refusal: LatchError?
        do {
            try await queue.enqueue(send)
        } catch let error as LatchError {
            refusal = error
        }
        let refused = await queue.refused
        gate.release()
        await queue.waitUntilIdle()

        #expect(refusal?.status == .serviceUnavailable && refusal?.code == .internalError)
        #expect(refusal?.reasons == ["delivery_queue_full"] && (refusal?.retryAfter ?? 0) > 0)
        #expect(refused == 1)
        #expect(sent.load(ordering: .relaxed) == 2, "the two queued ones were sent, the refused one never")
    }

    @Test("issue 10 §3: POST /v1/sms/codes answers 503 with retry_after when the SMS queue is full", arguments: TestDatabase.all)
    func test_10_requestAnswers503WhenQueueIsFull(database: TestDatabase) async throws {
        // A gateway that answers only when released: the 4 sends in flight stay busy while the test runs.
        let gate = Gate()
        let gateway = try await Application.make(.testing)
        gateway.post("sms") { _ async throws -> HTTPStatus in
            await gate.pass()
            return .ok
        }
        try await gateway.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = try #require(gateway.http.server.shared.localAddress?.port)
        let server = try await DeliveryTestServer.start(
            database, smsWebhookURL: "http://127.0.0.1:\(port)/sms", adjust: { $0.deliveryQueueCapacity = 1 })

        var statuses: [UInt] = []
        var refusal: TestResponse?
        for n in 0..<6 {
            let response = try await server.post("/v1/sms/codes", json: ["phone": "+86138001380\(String(format: "%02d", n))"])
            statuses.append(response.status)
            if response.status == 503 { refusal = response }
        }
        gate.release()
        try await server.stop()
        await gateway.server.shutdown()
        try await gateway.asyncShutdown()

        // 4 sending + 1 waiting fill the queue (capacity 1); the 6th is refused.
        #expect(statuses == [202, 202, 202, 202, 202, 503], "\(statuses)")
        let body = try #require(refusal)
        #expect(body.errorCode == "INTERNAL_ERROR" && body.json["reasons"] as? [String] == ["delivery_queue_full"], "\(body.text)")
        #expect((body.json["retry_after"] as? Int ?? 0) > 0 && body.headers.first(name: "Retry-After") != nil)
    }
}
