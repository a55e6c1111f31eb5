import Foundation
import Testing

@testable import LatchServer

/// Issue 42 §2: the Standard Webhooks envelope, as a pure value (delivery is still to come).
@Suite("Standard Webhooks signature (issue 42 §2)")
struct StandardWebhookSignatureTests {
    @Test(
        "42 §2 the signature is the specification's: its published vector (checked by hand against the standardwebhooks Python package 1.1.0)"
    )
    func test_42_2_specificationVector() throws {
        let secret = try #require(WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let body = Data(#"{"test": 2432232314}"#.utf8)
        let signature = StandardWebhookSignature.sign(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: body, secret: secret)
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(
            StandardWebhookSignature.verifies(
                header: "v1,bm9wZQ== " + signature, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
                body: body, secret: secret))
        #expect(
            !StandardWebhookSignature.verifies(
                header: signature, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_331, body: body,
                secret: secret), "another timestamp")
    }

    @Test("42 §2 during a rotation both secrets sign, space-separated; a secret is whsec_ and 32 random bytes")
    func test_42_2_rotationHeaders() throws {
        let old = WebhookSecret.random()
        let new = WebhookSecret.random()
        #expect(old != new && old.text.hasPrefix("whsec_") && WebhookSecret(old.text) == old && old.key.count == 32)
        #expect(WebhookSecret("whsec_short") == nil && WebhookSecret("not base64!") == nil)
        let body = Data("{}".utf8)
        let headers = StandardWebhookSignature.headers(id: "evt_1", timestamp: 5, body: body, secrets: [new, old])
        #expect(headers.map(\.0) == ["webhook-id", "webhook-timestamp", "webhook-signature"])
        let signature = try #require(headers.last?.1)
        #expect(signature.split(separator: " ").count == 2)
        for secret in [old, new] {
            #expect(
                StandardWebhookSignature.verifies(
                    header: signature, id: "evt_1", timestamp: 5, body: body, secret: secret))
        }
        #expect(
            !StandardWebhookSignature.verifies(
                header: signature, id: "evt_1", timestamp: 5, body: body, secret: .random()))
    }

    @Test("42 §2 the body is {type, timestamp, data} with the event's ids in data, the same bytes every time")
    func test_42_2_payload() throws {
        let stored = OutboundEventStore.Stored(
            seq: 1, id: "evt_00", type: "account.frozen", occurredAt: 1_796_184_000.25, user: nil, session: nil,
            actor: "user", transaction: "txn_00", data: #"{"b":1,"a":"x"}"#)
        let body = try WebhookPayload.body(of: stored)
        #expect(body == (try WebhookPayload.body(of: stored)))
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"data":{"a":"x","actor":"user","b":1,"id":"evt_00","txn":"txn_00"},"timestamp":"2026-12-02T04:00:00.250Z","type":"account.frozen"}"#
        )
    }
}
