import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import Logging
import NIOHTTP1
import SQLKit
import Synchronization
import Testing

@testable import LatchServer

/// Issue 42 §2 and §3: streams, the webhook envelope, and delivery that loses nothing and floods no one.
/// The worker is driven by hand (`deliverDue`) on the test clock, with a transport that records what it
/// is given and answers as the test says; the receiver-facing HTTP client is `ReceiverClientTests`'.
@Suite("Event stream delivery (issue 42 §2, §3)")
struct EventStreamDeliveryTests {
    /// Records every delivery and answers with `status` (a receiver that is down answers 503).
    final class RecordingReceiver: EventTransport {
        struct Received: Sendable {
            let url: String
            let request: EventDeliveryRequest
            var header: [String: String] {
                Dictionary(request.headers.map { ($0.name, $0.value) }) { first, _ in first }
            }
            /// The body as a webhook; `nil` when it is not one.
            var webhook: Webhook? { try? JSONDecoder().decode(Webhook.self, from: request.body) }
            var eventID: String { header["webhook-id"] ?? "" }
        }

        let received = Mutex<[Received]>([])
        let status = Mutex<Int>(200)

        func deliver(_ request: EventDeliveryRequest, to url: String) async -> EventTransportOutcome {
            received.withLock { $0.append(Received(url: url, request: request)) }
            let status = self.status.withLock { $0 }
            return .answered(status: status, body: status == 200 ? "" : "down for maintenance")
        }

        var all: [Received] { received.withLock { $0 } }
        func setStatus(_ value: Int) { status.withLock { $0 = value } }
    }

    /// A Standard Webhooks body (`{"type", "timestamp", "data"}`), as far as the tests read it.
    struct Webhook: Decodable {
        struct Fields: Decodable {
            var id: String?
            var user_id: String?
        }
        var type: String?
        var data: Fields?
    }

    static func worker(_ server: TestServer, _ receiver: RecordingReceiver, id: String = "") -> EventDeliveryWorker {
        let services = server.app.latch.eventStreams
        return EventDeliveryWorker(
            streams: services.streams, deliveries: services.deliveries, database: { server.app.db },
            transport: receiver, tokens: services.tokens, clock: server.clock.latchClock,
            logger: Logger(label: "test"), metrics: .disabled)
    }

    /// A server without background tasks: the test's worker is the only one.
    static func start(_ database: TestDatabase, sharing location: LatchConfig.DatabaseLocation? = nil)
        async throws -> TestServer
    {
        try await TestServer.start(database, sharing: location) { $0.runsBackgroundTasks = false }
    }

    static func admin(_ server: TestServer) -> AdminService { .console(on: server.app, language: .en) }

    static func addWebhook(_ server: TestServer, types: [String] = []) async throws -> AddedEventStream {
        try await admin(server).addEventStream(
            kind: "webhook", url: "https://receiver.example.com/latch", types: types, audience: nil, description: nil)
    }

    static func freezeAndUnfreeze(_ server: TestServer, _ user: String) async throws {
        try await admin(server).freeze(user)
        try await admin(server).unfreeze(user)
    }

    @Test(
        "42 §2 a webhook is a Standard Webhooks POST: webhook-id is the event id, the signature verifies with the stream's secret"
    )
    func test_42_2_webhookEnvelope() async throws {
        let server = try await Self.start(.sqlite)
        defer { Task { try? await server.stop() } }
        let added = try await Self.addWebhook(server)
        let secretText = try #require(added.secret)
        let secret = try #require(WebhookSecret(secretText))
        #expect(added.secret?.hasPrefix("whsec_") == true)
        let listed = try await Self.admin(server).listEventStreams()
        #expect(listed.map(\.id) == [added.stream.id])
        #expect(!String(decoding: try JSONEncoder().encode(listed), as: UTF8.self).contains(added.secret!))
        let user = try await server.signUp().user.id
        try await Self.admin(server).freeze(user)
        let receiver = RecordingReceiver()
        #expect(try await Self.worker(server, receiver).deliverDue() == 3)
        let got = receiver.all
        #expect(
            got.map { $0.webhook?.type } == ["account.registered", "session.revoked", "account.frozen"],
            "the freeze's reset ends the sessions")
        for delivery in got {
            let header = delivery.header
            #expect(delivery.url == "https://receiver.example.com/latch")
            #expect(delivery.request.contentType == "application/json")
            let timestamp = try #require(Int(header["webhook-timestamp"] ?? ""))
            #expect(
                StandardWebhookSignature.verifies(
                    header: header["webhook-signature"] ?? "", id: delivery.eventID, timestamp: timestamp,
                    body: delivery.request.body, secret: secret))
            let data = try #require(delivery.webhook?.data)
            #expect(data.id == delivery.eventID && delivery.eventID.hasPrefix("evt_"))
            #expect(data.user_id == user)
        }
        let log = try await Self.admin(server).eventStreamDeliveries(added.stream.id, state: nil, limit: 10)
        #expect(log.deliveries.map(\.state) == ["delivered", "delivered", "delivered"])
        #expect(log.deliveries.map(\.lastStatus) == [200, 200, 200])
        #expect(try await Self.worker(server, receiver).deliverDue() == 0, "nothing is sent twice")
    }

    @Test("42 §3 a stream hears only its types; a disabled stream queues nothing", arguments: TestDatabase.all)
    func test_42_3_typesFilter(database: TestDatabase) async throws {
        let server = try await Self.start(database)
        defer { Task { try? await server.stop() } }
        let frozenOnly = try await Self.addWebhook(server, types: ["account.frozen"])
        let user = try await server.signUp().user.id
        try await Self.freezeAndUnfreeze(server, user)
        let receiver = RecordingReceiver()
        try await Self.worker(server, receiver).deliverDue()
        #expect(receiver.all.map { $0.webhook?.type } == ["account.frozen"])
        await #expect(throws: LatchError.self) {
            _ = try await Self.admin(server).addEventStream(
                kind: "webhook", url: "https://receiver.example.com", types: ["account.nope"], audience: nil,
                description: nil)
        }
        _ = frozenOnly
    }

    @Test("42 §1 a change that rolls back queues no delivery; a committed one always does", arguments: TestDatabase.all)
    func test_42_1_rolledBackChangeQueuesNothing(database: TestDatabase) async throws {
        let server = try await Self.start(database)
        defer { Task { try? await server.stop() } }
        let stream = try await Self.addWebhook(server).stream.id
        let user = try #require(UUID(uuidString: try await server.signUp().user.id))
        struct Rollback: Error {}
        let events = server.app.latch.events
        let pending: () async throws -> Int = {
            try await Self.admin(server).eventStreamDeliveries(stream, state: "pending", limit: 100).deliveries.count
        }
        let before = try await pending()
        await #expect(throws: Rollback.self) {
            try await server.app.db.tracedTransaction { database in
                try await events.record(.accountFrozen, user: user, ip: nil, now: 1, actor: "owner", on: database)
                throw Rollback()
            }
        }
        #expect(try await pending() == before)
        try await server.app.db.tracedTransaction { database in
            try await events.record(.accountFrozen, user: user, ip: nil, now: 1, actor: "owner", on: database)
        }
        #expect(try await pending() == before + 1)
    }

    @Test(
        "42 §3 a receiver down for minutes gets everything afterwards, each user's events in order, with their ids",
        arguments: TestDatabase.all)
    func test_42_3_receiverDownForMinutes(database: TestDatabase) async throws {
        let server = try await Self.start(database)
        defer { Task { try? await server.stop() } }
        let stream = try await Self.addWebhook(server).stream.id
        var users: [String] = []
        for index in 0..<3 { users.append(try await server.signUp("user\(index)@example.com").user.id) }
        let receiver = RecordingReceiver()
        let worker = Self.worker(server, receiver)
        receiver.setStatus(503)
        for user in users { try await Self.freezeAndUnfreeze(server, user) }
        // Ten minutes down: the worker tries whenever a retry comes due (backoff 1 s, 2 s, 4 s … with jitter).
        var attemptsWhileDown = 0
        for _ in 0..<600 {
            attemptsWhileDown += try await worker.deliverDue()
            server.clock.advance(by: 1)
        }
        let heads = users.count // one head per user is tried; the rest wait behind it
        #expect(attemptsWhileDown >= heads * 5 && attemptsWhileDown <= heads * 12, "\(attemptsWhileDown) attempts")
        let failing = try await Self.admin(server).eventStreamDeliveries(stream, state: "pending", limit: 100)
        #expect(failing.deliveries.contains { $0.lastStatus == 503 && $0.lastError == "down for maintenance" })
        // More changes while it is down.
        for user in users { try await Self.admin(server).freeze(user) }
        receiver.setStatus(200)
        let downCount = receiver.all.count
        for _ in 0..<3_700 where try await Self.pendingCount(server, stream) > 0 {
            try await worker.deliverDue()
            server.clock.advance(by: 1)
        }
        #expect(try await Self.pendingCount(server, stream) == 0)
        let delivered = Array(receiver.all.dropFirst(downCount))
        for user in users {
            let types = delivered.filter { $0.webhook?.data?.user_id == user }.map { $0.webhook?.type ?? "" }
            #expect(
                types.filter { $0.hasPrefix("account.") }
                    == ["account.registered", "account.frozen", "account.unfrozen", "account.frozen"],
                "\(user): \(types)")
        }
        // The ids are the events' own: a retried event keeps its id.
        let triedWhileDown = Set(receiver.all.prefix(downCount).map(\.eventID))
        #expect(triedWhileDown.isSubset(of: Set(delivered.map(\.eventID))))
    }

    static func pendingCount(_ server: TestServer, _ stream: String) async throws -> Int {
        try await admin(server).eventStreamDeliveries(stream, state: "pending", limit: 100).deliveries.count
    }

    @Test(
        "42 §3 after 72 hours of failures an event is failed, the user's next events go on, and replay sends it again")
    func test_42_3_failedAfter72HoursAndReplay() async throws {
        let server = try await Self.start(.sqlite)
        defer { Task { try? await server.stop() } }
        let stream = try await Self.addWebhook(server, types: ["account.frozen", "account.unfrozen"]).stream.id
        let user = try await server.signUp().user.id
        let receiver = RecordingReceiver()
        let worker = Self.worker(server, receiver)
        receiver.setStatus(500)
        try await Self.admin(server).freeze(user)
        let log = try await Self.admin(server).eventStreamDeliveries(stream, state: nil, limit: 1)
        let frozenID = try #require(log.deliveries.first?.eventId)
        for _ in 0..<80 {
            try await worker.deliverDue()
            server.clock.advance(by: 3_600)
        }
        let failed = try await Self.admin(server).eventStreamDeliveries(stream, state: "failed", limit: 10).deliveries
        #expect(failed.map(\.eventId) == [frozenID])
        #expect(failed.first.map { $0.attempts >= 70 && $0.attempts <= 90 } == true, "\(failed)")
        receiver.setStatus(200)
        try await Self.admin(server).unfreeze(user)
        let before = receiver.all.count
        try await worker.deliverDue()
        #expect(receiver.all.dropFirst(before).map { $0.webhook?.type } == ["account.unfrozen"])
        let replay = try await Self.admin(server).replayEventStream(stream, fromEvent: frozenID, since: nil)
        #expect(replay.queued == 2)
        let beforeReplay = receiver.all.count
        try await worker.deliverDue()
        #expect(receiver.all.dropFirst(beforeReplay).map(\.eventID).first == frozenID)
        #expect(receiver.all.dropFirst(beforeReplay).count == 2)
        await #expect(throws: LatchError.self) {
            _ = try await Self.admin(server).replayEventStream(stream, fromEvent: "evt_nope", since: nil)
        }
    }

    @Test("42 §2 rotating a secret sends both signatures for 24 hours, then only the new one")
    func test_42_2_secretRotation() async throws {
        let server = try await Self.start(.sqlite)
        defer { Task { try? await server.stop() } }
        let added = try await Self.addWebhook(server)
        let old = try #require(WebhookSecret(added.secret ?? ""))
        let rotated = try await Self.admin(server).rotateEventStreamSecret(added.stream.id)
        let new = try #require(WebhookSecret(rotated.secret))
        #expect(rotated.previousValidUntil == server.clock.now.addingTimeInterval(86_400))
        let receiver = RecordingReceiver()
        let worker = Self.worker(server, receiver)
        let user = try await server.signUp().user.id
        try await worker.deliverDue()
        func verifies(_ delivery: RecordingReceiver.Received, _ secret: WebhookSecret) -> Bool {
            StandardWebhookSignature.verifies(
                header: delivery.header["webhook-signature"] ?? "", id: delivery.eventID,
                timestamp: Int(delivery.header["webhook-timestamp"] ?? "") ?? 0, body: delivery.request.body,
                secret: secret)
        }
        let during = try #require(receiver.all.last)
        #expect(verifies(during, old) && verifies(during, new))
        #expect(during.header["webhook-signature"]?.split(separator: " ").count == 2)
        server.clock.advance(by: 86_401)
        try await Self.admin(server).freeze(user)
        try await worker.deliverDue()
        let after = try #require(receiver.all.last)
        #expect(!verifies(after, old) && verifies(after, new))
        await #expect(throws: LatchError.self) {
            _ = try await Self.admin(server).rotateEventStreamSecret("es_nope")
        }
    }

    @Test(
        "42 §3 two instances on PostgreSQL share the work: every event delivered once, each user's in order",
        .enabled(if: TestDatabase.all.count > 1, "needs LATCH_TEST_POSTGRES_URL"))
    func test_42_3_twoInstancesOnPostgreSQL() async throws {
        let postgres = try #require(TestDatabase.all.last)
        let first = try await Self.start(postgres)
        defer { Task { try? await first.stop() } }
        let second = try await Self.start(postgres, sharing: first.location)
        defer { Task { try? await second.stop() } }
        let stream = try await Self.addWebhook(first, types: ["account.frozen", "account.unfrozen"]).stream.id
        var users: [String] = []
        for index in 0..<8 { users.append(try await first.signUp("user\(index)@example.com").user.id) }
        for _ in 0..<3 {
            for user in users { try await Self.freezeAndUnfreeze(first, user) }
        }
        let receiver = RecordingReceiver()
        let workers = [Self.worker(first, receiver), Self.worker(second, receiver)]
        try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in workers {
                group.addTask {
                    var attempts = 0
                    for _ in 0..<50 { attempts += try await worker.deliverDue() }
                    return attempts
                }
            }
            for try await _ in group {}
        }
        #expect(try await Self.pendingCount(first, stream) == 0)
        let ids = receiver.all.map(\.eventID)
        #expect(ids.count == users.count * 6, "\(ids.count) deliveries")
        #expect(Set(ids).count == ids.count, "no event delivered twice")
        for user in users {
            let types = receiver.all.filter { $0.webhook?.data?.user_id == user }.map { $0.webhook?.type ?? "" }
            #expect(types == Array(repeating: ["account.frozen", "account.unfrozen"], count: 3).flatMap { $0 })
        }
    }

    @Test(
        "42 §3 receiver URLs: https only (http in development), private and loopback addresses refused unless allowed")
    func test_42_3_receiverURLRules() async throws {
        let production = try await TestServer.start(.sqlite, production: true) { $0.runsBackgroundTasks = false }
        defer { Task { try? await production.stop() } }
        let admin = Self.admin(production)
        for url in [
            "http://receiver.example.com/hook", "https://127.0.0.1/hook", "https://10.1.2.3/hook",
            "https://169.254.169.254/latest", "https://[::1]/hook", "https://user:pass@receiver.example.com/",
            "ftp://receiver.example.com/", "not a url"
        ] {
            await #expect(throws: LatchError.self, "\(url)") {
                _ = try await admin.addEventStream(
                    kind: "webhook", url: url, types: [], audience: nil, description: nil)
            }
        }
        _ = try await admin.addEventStream(
            kind: "webhook", url: "https://receiver.example.com/hook", types: [], audience: nil, description: nil)
        let allowed = try await TestServer.start(.sqlite, production: true) {
            $0.runsBackgroundTasks = false
            $0.eventStreamsAllowPrivate = true
            $0.eventStreamsAllowHTTP = true
        }
        defer { Task { try? await allowed.stop() } }
        _ = try await Self.admin(allowed).addEventStream(
            kind: "webhook", url: "http://127.0.0.1:9/hook", types: [], audience: nil, description: nil)
    }

    @Test(
        "42 §1 no delivered payload carries the email, phone, password, a code or a token", arguments: TestDatabase.all)
    func test_42_1_payloadsFreeOfSecrets(database: TestDatabase) async throws {
        let server = try await Self.start(database)
        defer { Task { try? await server.stop() } }
        _ = try await Self.addWebhook(server)
        let email = "secret.person@example.com"
        let password = "Correct-Horse-9"
        let tokens = try await server.signUp(email, password: password)
        let newPassword = "Battery-Staple-77"
        let changed = try await server.send(
            .POST, "/v1/password/change", json: ["current_password": password, "new_password": newPassword],
            bearer: tokens.accessToken)
        #expect(changed.status == 204 || changed.status == 200, "\(changed.text)")
        let signedIn = try await server.signIn(email, password: newPassword)
        let signedInTokens = try signedIn.decode(TokenResponse.self)
        let access = signedInTokens.accessToken
        let refresh = signedInTokens.refreshToken
        _ = try await server.send(.DELETE, "/v1/sessions", bearer: access)
        try await Self.freezeAndUnfreeze(server, tokens.user.id)
        let receiver = RecordingReceiver()
        try await Self.worker(server, receiver).deliverDue()
        #expect(receiver.all.count >= 5)
        let secrets = [
            email, "secret.person", password, newPassword, tokens.accessToken, tokens.refreshToken,
            access, refresh
        ]
        for delivery in receiver.all {
            let body = String(decoding: delivery.request.body, as: UTF8.self)
            for secret in secrets {
                #expect(!body.contains(secret), "\(delivery.webhook?.type ?? "") carries a secret")
            }
            #expect(body.range(of: #""\d{6}""#, options: .regularExpression) == nil, "no 6-digit code")
        }
    }
}
