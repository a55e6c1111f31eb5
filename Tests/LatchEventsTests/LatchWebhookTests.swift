import Foundation
import LatchEvents
import Testing

/// Issue 42 §4: the backend team's library verifies Standard Webhooks exactly and decodes Latch's events.
@Suite("LatchEvents: Standard Webhooks verification (issue 42 §4)")
struct LatchWebhookTests {
    /// The Standard Webhooks specification's published vector (also StandardWebhookSignatureTests').
    enum Vector {
        static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        static let id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
        static let timestamp = 1_614_265_330
        static let body = Data(#"{"test": 2432232314}"#.utf8)
        static let signature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        static let now = Date(timeIntervalSince1970: TimeInterval(timestamp))
        static var headers: [String: String] {
            ["webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature]
        }
    }

    /// A body as latchd sends it (WebhookPayload: keys sorted, the ids in `data`).
    static let frozenBody = Data(
        #"{"data":{"actor":"operator","id":"evt_5f0c1e6b2a9d4c3e8f7a6b5c4d3e2f10","txn":"txn_1f2e3d4c5b6a79881726354453627181","user_id":"0d9c4b1e-0000-4000-8000-000000000001"},"timestamp":"2026-12-02T04:00:00.250Z","type":"account.frozen"}"#
            .utf8)

    static func refusal(
        _ webhook: LatchWebhook, _ body: Data, _ headers: [String: String], now: Date
    ) -> LatchWebhookError? {
        do {
            try webhook.verifySignature(body: body, headers: headers, now: now)
            return nil
        } catch let error as LatchWebhookError {
            return error
        } catch {
            Issue.record("not a LatchWebhookError: \(error)")
            return nil
        }
    }

    @Test("42 §4 the specification's vector verifies, with header names in any case and other entries beside it")
    func test_42_4_specificationVector() throws {
        let webhook = try LatchWebhook(secret: Vector.secret)
        try webhook.verifySignature(body: Vector.body, headers: Vector.headers, now: Vector.now)
        let shouted = Dictionary(uniqueKeysWithValues: Vector.headers.map { ($0.key.uppercased(), $0.value) })
        try webhook.verifySignature(body: Vector.body, headers: shouted, now: Vector.now)
        var several = Vector.headers
        several["webhook-signature"] = "v1,bm9wZQ== v1a,abc garbage " + Vector.signature
        try webhook.verifySignature(body: Vector.body, headers: several, now: Vector.now)
        // The vector's body is no Latch event: it verifies, then does not decode.
        #expect(throws: LatchWebhookError.self) {
            try webhook.verify(body: Vector.body, headers: Vector.headers, now: Vector.now)
        }
    }

    @Test("42 §4 a tampered body or timestamp, the wrong secret, a missing header and a bad secret are refused")
    func test_42_4_tamperedRefused() throws {
        let webhook = try LatchWebhook(secret: Vector.secret)
        var body = Vector.body
        body[body.count - 2] ^= 1
        #expect(Self.refusal(webhook, body, Vector.headers, now: Vector.now) == .noMatchingSignature)
        var later = Vector.headers
        later["webhook-timestamp"] = String(Vector.timestamp + 1)
        #expect(Self.refusal(webhook, Vector.body, later, now: Vector.now) == .noMatchingSignature)
        var otherID = Vector.headers
        otherID["webhook-id"] = "msg_other"
        #expect(Self.refusal(webhook, Vector.body, otherID, now: Vector.now) == .noMatchingSignature)
        let wrong = try LatchWebhook(secret: WebhookSigner.newSecret())
        #expect(Self.refusal(wrong, Vector.body, Vector.headers, now: Vector.now) == .noMatchingSignature)
        var v1a = Vector.headers
        v1a["webhook-signature"] = "v1a," + Vector.signature.dropFirst(3)
        #expect(Self.refusal(webhook, Vector.body, v1a, now: Vector.now) == .noMatchingSignature)
        for name in ["webhook-id", "webhook-timestamp", "webhook-signature"] {
            var missing = Vector.headers
            missing[name] = nil
            #expect(Self.refusal(webhook, Vector.body, missing, now: Vector.now) == .missingHeader(name))
        }
        var notANumber = Vector.headers
        notANumber["webhook-timestamp"] = "yesterday"
        #expect(
            Self.refusal(webhook, Vector.body, notANumber, now: Vector.now) == .invalidTimestamp("yesterday"))
        for secret in ["whsec_short", "whsec_not base64!", ""] {
            #expect(throws: LatchWebhookError.invalidSecret) { try LatchWebhook(secret: secret) }
        }
        #expect(throws: LatchWebhookError.invalidSecret) { try LatchWebhook(secrets: []) }
        #expect(LatchWebhookError.noMatchingSignature.code == "no_matching_signature")
    }

    @Test("42 §4 the timestamp may be at most 5 minutes off, either way")
    func test_42_4_timestampTolerance() throws {
        let webhook = try LatchWebhook(secret: Vector.secret)
        for offset in [-300.0, 0, 300] {
            try webhook.verifySignature(
                body: Vector.body, headers: Vector.headers, now: Vector.now.addingTimeInterval(offset))
        }
        #expect(
            Self.refusal(webhook, Vector.body, Vector.headers, now: Vector.now.addingTimeInterval(301))
                == .timestampTooOld)
        #expect(
            Self.refusal(webhook, Vector.body, Vector.headers, now: Vector.now.addingTimeInterval(-301))
                == .timestampTooNew)
    }

    @Test("42 §4 during a rotation both secrets sign: either secret verifies, and a receiver may hold both")
    func test_42_4_rotation() throws {
        let old = WebhookSigner.newSecret()
        let new = WebhookSigner.newSecret()
        let now = Date()
        let timestamp = Int(now.timeIntervalSince1970)
        let headers = WebhookSigner.headers(
            id: "evt_5f0c1e6b2a9d4c3e8f7a6b5c4d3e2f10", timestamp: timestamp, body: Self.frozenBody,
            secrets: [new, old])
        #expect(headers["webhook-signature"]?.split(separator: " ").count == 2)
        for secret in [old, new] {
            let event = try LatchWebhook(secret: secret).verify(body: Self.frozenBody, headers: headers, now: now)
            #expect(event.type == .accountFrozen)
        }
        // After the 24 h only the new secret signs: a receiver that holds both still verifies.
        let onlyNew = WebhookSigner.headers(
            id: "evt_5f0c1e6b2a9d4c3e8f7a6b5c4d3e2f10", timestamp: timestamp, body: Self.frozenBody, secrets: [new])
        _ = try LatchWebhook(secrets: [old, new]).verify(body: Self.frozenBody, headers: onlyNew, now: now)
        #expect(
            Self.refusal(try LatchWebhook(secret: old), Self.frozenBody, onlyNew, now: now) == .noMatchingSignature)
    }

    @Test("42 §4 a body decodes to the typed event: ids, time, actor, transaction, data; unknown types kept")
    func test_42_4_decoding() throws {
        let event = try LatchEvent(webhookBody: Self.frozenBody)
        #expect(event.id == "evt_5f0c1e6b2a9d4c3e8f7a6b5c4d3e2f10")
        #expect(event.type == .accountFrozen && event.type.rawValue == "account.frozen")
        #expect(event.timestamp == Date(timeIntervalSince1970: 1_796_184_000.25))
        #expect(event.userID == "0d9c4b1e-0000-4000-8000-000000000001" && event.sessionID == nil)
        #expect(event.actor == .operator)
        #expect(event.transaction == "txn_1f2e3d4c5b6a79881726354453627181")
        #expect(event.data.isEmpty, "the ids are fields of the event, not of its data")

        let hold = try LatchEvent(
            webhookBody: Data(
                #"{"data":{"actions":["withdrawal"],"actor":"user","id":"evt_1","reason":"password_changed","session_id":"7a1b","txn":"txn_1","until":1796270400,"user_id":"u"},"timestamp":"2026-12-02T04:00:00Z","type":"hold.started"}"#
                    .utf8))
        #expect(hold.type == .holdStarted && hold.actor == .user && hold.sessionID == "7a1b")
        #expect(hold.actions == ["withdrawal"] && hold.reason == "password_changed")
        #expect(hold.until == Date(timeIntervalSince1970: 1_796_270_400))
        #expect(hold.data["until"] == .int(1_796_270_400))

        let newer = try LatchEvent(
            webhookBody: Data(
                #"{"data":{"actor":"robot","id":"evt_2","txn":"txn_2","extra":{"a":[1,2.5,null,true]}},"timestamp":"2026-12-02T04:00:00Z","type":"account.renamed"}"#
                    .utf8))
        #expect(newer.type == .unknown("account.renamed") && newer.actor == .unknown("robot"))
        #expect(newer.data["extra"] == .object(["a": .array([.int(1), .double(2.5), .null, .bool(true)])]))
        #expect(LatchEventType("account.frozen") == .accountFrozen && LatchEventType.known.count == 21)
        #expect(throws: LatchWebhookError.self) { try LatchEvent(webhookBody: Data(#"{"type":"x"}"#.utf8)) }
    }

    @Test("42 §4 the docs' Swift receiver acts on a freeze once, drops the duplicate, refuses a forgery with 401")
    func test_42_4_docsReceiverExample() throws {
        let secret = WebhookSigner.newSecret()
        var receiver = try BackendReceiver(secret: secret)
        let headers = WebhookSigner.headers(
            id: "evt_5f0c1e6b2a9d4c3e8f7a6b5c4d3e2f10", timestamp: Int(Date().timeIntervalSince1970),
            body: Self.frozenBody, secrets: [secret])
        #expect(receiver.receive(body: Self.frozenBody, headers: headers) == 204)
        #expect(receiver.receive(body: Self.frozenBody, headers: headers) == 204, "a duplicate, same id")
        let user = "0d9c4b1e-0000-4000-8000-000000000001"
        #expect(receiver.done == ["revoke API keys of \(user)", "cancel withdrawals of \(user)"])
        var forged = headers
        forged["webhook-signature"] = WebhookSigner.signature(
            id: "evt_5f0c1e6b2a9d4c3e8f7a6b5c4d3e2f10", timestamp: Int(Date().timeIntervalSince1970),
            body: Self.frozenBody, secret: WebhookSigner.newSecret())
        #expect(receiver.receive(body: Self.frozenBody, headers: forged) == 401)
        #expect(receiver.done.count == 2)
    }
}
