import Foundation
import LatchCore
import LatchEvents
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 42 §4: what latchd delivers is what the backend team's library (LatchEvents) verifies and decodes.
/// The bodies and signatures are the delivery worker's own (`EventStreamDeliveryTests.RecordingReceiver`).
@Suite("LatchEvents receives latchd's deliveries (issue 42 §4)")
struct EventReceiverLibraryTests {
    typealias Delivery = EventStreamDeliveryTests

    @Test("42 §4 a freeze's deliveries verify with the stream's secret and decode to typed events, one txn")
    func test_42_4_deliveriesVerifyAndDecode() async throws {
        let server = try await Delivery.start(.sqlite)
        defer { Task { try? await server.stop() } }
        let added = try await Delivery.addWebhook(server)
        let webhook = try LatchWebhook(secret: try #require(added.secret))
        let user = try await server.signUp().user.id
        try await Delivery.admin(server).freeze(user)
        let receiver = Delivery.RecordingReceiver()
        try await Delivery.worker(server, receiver).deliverDue()

        let events = try receiver.all.map {
            try webhook.verify(body: $0.request.body, headers: $0.header, now: server.clock.now)
        }

        #expect(events.map(\.type) == [.accountRegistered, .sessionRevoked, .accountFrozen])
        #expect(events.map(\.id) == receiver.all.map(\.eventID))
        #expect(events.allSatisfy { $0.userID == user && $0.id.hasPrefix("evt_") })
        #expect(events[0].dpopBound == false && events[0].actor == .user && events[0].sessionID != nil)
        let (revoked, frozen) = (events[1], events[2])
        #expect(revoked.transaction == frozen.transaction && revoked.transaction.hasPrefix("txn_"))
        #expect(frozen.actor == .operator && revoked.reason == "reset" && revoked.scope == "all")
        #expect(revoked.ended?["sessions"] == 1)
        #expect(abs(frozen.timestamp.timeIntervalSince(server.clock.now)) < 1)
    }

    @Test("42 §4 after rotate-secret a delivery verifies with the old secret and with the new one")
    func test_42_4_rotatedDeliveriesVerifyWithEither() async throws {
        let server = try await Delivery.start(.sqlite)
        defer { Task { try? await server.stop() } }
        let added = try await Delivery.addWebhook(server)
        let rotated = try await Delivery.admin(server).rotateEventStreamSecret(added.stream.id)
        _ = try await server.signUp()
        let receiver = Delivery.RecordingReceiver()
        try await Delivery.worker(server, receiver).deliverDue()
        let delivery = try #require(receiver.all.first)

        for secret in [try #require(added.secret), rotated.secret] {
            let event = try LatchWebhook(secret: secret).verify(
                body: delivery.request.body, headers: delivery.header, now: server.clock.now)
            #expect(event.type == .accountRegistered)
        }
        #expect(throws: LatchWebhookError.noMatchingSignature) {
            try LatchWebhook(secret: WebhookSecret.random().text).verify(
                body: delivery.request.body, headers: delivery.header, now: server.clock.now)
        }
    }

    @Test("42 §4 an SSF push's SET verifies with LatchEvents against latchd's /.well-known/jwks.json")
    func test_42_4_pushedSetVerifiesAgainstJWKS() async throws {
        let server = try await Delivery.start(.sqlite)
        defer { Task { try? await server.stop() } }
        let audience = "https://backend.example.com"
        _ = try await Delivery.admin(server).addEventStream(
            kind: "ssf_push", url: "https://receiver.example.com/ssf", types: [], audience: audience,
            description: nil)
        let user = try await server.signUp().user.id
        try await Delivery.admin(server).freeze(user)
        let receiver = Delivery.RecordingReceiver()
        try await Delivery.worker(server, receiver).deliverDue()
        let jwks = try await server.send(.GET, "/.well-known/jwks.json")
        let verifier = try LatchSecurityEventVerifier(jwks: jwks.data, issuer: "http://latch.test", audience: audience)

        let sets = try receiver.all.map { try verifier.verify($0.request.body) }

        #expect(!sets.isEmpty && receiver.all.allSatisfy { $0.request.contentType == "application/secevent+jwt" })
        #expect(sets.allSatisfy { $0.userID == user && $0.id.hasPrefix("evt_") && $0.audience == [audience] })
        let disabled = try #require(
            sets.first {
                $0.events.keys.contains("https://schemas.openid.net/secevent/risc/event-type/account-disabled")
            })
        #expect(
            disabled.events.values.first?["reason"] == .string("hijacking"),
            "a freeze is RISC account-disabled, hijacking")
        #expect(throws: LatchSecurityEventError.wrongAudience) {
            try LatchSecurityEventVerifier(jwks: jwks.data, issuer: nil, audience: "https://other.example.com")
                .verify(receiver.all[0].request.body)
        }
    }
}
