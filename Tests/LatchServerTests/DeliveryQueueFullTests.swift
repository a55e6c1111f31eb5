import Foundation
import HTTPTypes
import LatchCore
import LatchTestSupport
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

@testable import LatchServer

/// Issue 10 §3: the delivery queue never drops a message silently. When it is full, the message is
/// refused and counted, and the request that wanted it sent answers 503 (INTERNAL_ERROR, `reasons`
/// `["delivery_queue_full"]`, `retry_after`).
@Suite("A full delivery queue answers 503 (issue 10 §3)")
struct DeliveryQueueFullTests {
    @Test("issue 10 §3: a full queue refuses the message with 503 delivery_queue_full and counts it")
    func test_10_fullQueueRefusesAndCounts() async throws {
        let queue = DeliveryQueue(
            channel: "sms", policy: SMTPClientTests.quick, logger: Logger(label: "test"), concurrency: 1, capacity: 1)
        let gate = TestGate()
        let sent = Atomic<Int>(0)
        let send: DeliveryQueue.Send = {
            await gate.enterAndWait()
            sent.add(1, ordering: .relaxed)
        }

        try await queue.enqueue(send) // sending (held at the gate)
        try await queue.enqueue(send) // waiting: the queue is now full
        var refusal: LatchError?
        do {
            try await queue.enqueue(send)
        } catch let error as LatchError {
            refusal = error
        }
        let refused = await queue.refused
        gate.open()
        await queue.waitUntilIdle()

        #expect(refusal?.status == .serviceUnavailable && refusal?.code == .internalError)
        #expect(refusal?.reasons == ["delivery_queue_full"] && (refusal?.retryAfter ?? 0) > 0)
        #expect(refused == 1)
        #expect(sent.load(ordering: .relaxed) == 2, "the two queued ones were sent, the refused one never")
    }

    @Test(
        "issue 10 §3: POST /v1/sms/codes answers 503 with retry_after when the SMS queue is full",
        arguments: TestDatabase.all)
    func test_10_requestAnswers503WhenQueueIsFull(database: TestDatabase) async throws {
        // A queue with room for nothing is always full (how much a queue holds is proven above), so the
        // answer does not depend on how fast a gateway is; the gateway URL is never called.
        let server = try await DeliveryTestServer.start(
            database, smsWebhookURL: "http://127.0.0.1:9/sms", adjust: { $0.deliveryQueueCapacity = 0 })

        let refusal = try await server.post("/v1/sms/codes", json: ["phone": "+8613800138000"])
        let again = try await server.post("/v1/sms/codes", json: ["phone": "+8613800138001"])
        try await server.stop()

        #expect(refusal.status == 503 && again.status == 503, "\(refusal.status) \(again.status)")
        #expect(
            refusal.errorCode == "INTERNAL_ERROR" && refusal.errorBody?.reasons == ["delivery_queue_full"],
            "\(refusal.text)")
        #expect((refusal.errorBody?.retryAfter ?? 0) > 0 && refusal.headers.first(name: "Retry-After") != nil)
    }
}
