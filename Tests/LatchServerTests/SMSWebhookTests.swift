import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 6 item 6: SMS over HTTP (`LATCH_SMS_WEBHOOK_URL`), against a stand-in gateway on loopback.
@Suite("SMS over an HTTP webhook (issue 6)", .serialized, .timeLimit(.minutes(10)))
struct SMSWebhookTests {
    static func sms(to: String = "+8613800138000", text: String = "Latch 验证码 123456，5 分钟内有效。") -> OutgoingMessage {
        OutgoingMessage(
            to: to, channel: OutgoingMessage.smsChannel, subject: "", body: text, code: "123456", createdAt: Date())
    }

    @Test(
        "C1 a message on channel sms is POSTed to LATCH_SMS_WEBHOOK_URL as JSON {to, text}", arguments: TestDatabase.all
    )
    func C1_smsGoesToWebhook(database: TestDatabase) async throws {
        let gateway = try await WebhookStandIn.start()
        do {
            try await withDeliveryServer(database, smsWebhookURL: gateway.url) { server in
                try await server.app.latch.delivery.deliver(Self.sms())

                let requests = try await gateway.waitForRequests(1)
                #expect(requests.count == 1)
                #expect(requests.first?.json == ["to": "+8613800138000", "text": "Latch 验证码 123456，5 分钟内有效。"])
                #expect(requests.first?.contentType?.hasPrefix("application/json") == true)
                #expect((await server.app.latch.outbox?.messages(to: nil) ?? []).isEmpty, "SMS do not go to the outbox")
            }
        } catch {
            try? await gateway.stop()
            throw error
        }
        try await gateway.stop()
    }

    @Test("C1 without LATCH_SMS_WEBHOOK_URL, development keeps SMS in the outbox (and mail still goes over SMTP)")
    func C1_smsWithoutWebhookGoesToOutbox() async throws {
        try await withSMTPSink { sink in
            try await withDeliveryServer(.sqlite, smtpURL: "smtp://127.0.0.1:\(sink.port)") { server in
                try await server.app.latch.delivery.deliver(Self.sms())

                let kept = await server.app.latch.outbox?.messages(to: "+8613800138000") ?? []
                #expect(kept.count == 1 && kept.first?.channel == "sms" && kept.first?.code == "123456")
                try await Task.sleep(for: .milliseconds(300)) // a mail, if one were sent, would have arrived by now
                #expect(try sink.messages().isEmpty, "an SMS is never mailed")
            }
        }
    }

    @Test("C1 production without LATCH_SMS_WEBHOOK_URL: an SMS is not sent (logged), nothing fails, there is no outbox")
    func C1_productionWithoutWebhookSendsNothing() async throws {
        let server = try await TestServer.start(.sqlite, production: true)
        try await server.app.latch.delivery.deliver(Self.sms())
        let outbox = server.app.latch.outbox
        let health = try await server.send(.GET, "/health")
        try await server.stop()

        #expect(outbox == nil && health.status == 200)
    }

    @Test("C1 non-2xx answers are retried with backoff until the gateway takes the SMS; deliver returns at once")
    func C1_smsWebhookRetriesNon2xx() async throws {
        // The gateway holds every answer until the test opens the gate: `deliver` returning at all
        // proves it does not wait for the gateway (issue 22 §8: no "within 500 ms").
        let gate = TestGate()
        let gateway = try await WebhookStandIn.start(answering: [503, 500, 429], holdingAnswersAt: gate)
        let queue = DeliveryQueue(channel: "sms", policy: SMTPClientTests.quick, logger: Logger(label: "test"))
        let delivery = SMSWebhookDelivery(url: gateway.url, http: .shared, queue: queue)

        try await delivery.deliver(Self.sms())
        gate.open()
        await queue.waitUntilIdle()
        let requests = gateway.received
        try await gateway.stop()

        #expect(requests.count == 4, "three refusals, then accepted")
        #expect(requests.allSatisfy { $0.json == ["to": "+8613800138000", "text": "Latch 验证码 123456，5 分钟内有效。"] })
    }

    @Test("C1 retries stop after the policy's attempts when the gateway keeps failing")
    func C1_smsWebhookRetriesAreBounded() async throws {
        let gateway = try await WebhookStandIn.start(answering: Array(repeating: 502, count: 20))
        let queue = DeliveryQueue(channel: "sms", policy: SMTPClientTests.quick, logger: Logger(label: "test"))
        let delivery = SMSWebhookDelivery(url: gateway.url, http: .shared, queue: queue)

        try await delivery.deliver(Self.sms())
        await queue.waitUntilIdle()
        let requests = gateway.received
        try await gateway.stop()

        #expect(requests.count == SMTPClientTests.quick.attempts)
    }

    @Test("C1 a gateway that cannot be reached is retried, then given up, without failing anything")
    func C1_smsWebhookConnectionErrorsAreRetried() async throws {
        let gateway = try await WebhookStandIn.start()
        let unreachable = "http://127.0.0.1:9/sms" // the discard port: nothing listens there
        let queue = DeliveryQueue(channel: "sms", policy: SMTPClientTests.quick, logger: Logger(label: "test"))
        var delivery = SMSWebhookDelivery(url: unreachable, http: .shared, queue: queue)
        delivery.timeout = .seconds(1) // the HTTP client keeps retrying a refused connection until then

        let started = ContinuousClock.now
        try await delivery.deliver(Self.sms())
        await queue.waitUntilIdle()
        let elapsed = ContinuousClock.now - started
        try await gateway.stop()

        // 4 attempts with 50 + 100 + 200 ms of backoff between them: the retries really waited.
        #expect(elapsed >= .milliseconds(350), "\(elapsed)")
    }
}
