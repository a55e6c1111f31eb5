import Crypto
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 43 §2's transport: push tokens on device keys, and approval pushes over APNs' HTTP/2 (provider
/// token, headers, payload, 410 / 429 / 5xx answers) through the durable queue, against `APNsStandIn`.
@Suite("Approval pushes over APNs (issue 43 §2)", .serialized, .timeLimit(.minutes(10)))
struct ApprovalPushTests {
    @Test(
        "43 §2 PUT/DELETE push-token: 204 on the caller's own key, 422 for a bad token or environment, 404 for another's",
        arguments: TestDatabase.all)
    func test_43_2_pushTokenRoutesValidateAndBelongToTheCaller(database: TestDatabase) async throws {
        try await withAPNs(database) { apns in
            let alice = try await apns.server.signUp()
            let bob = try await apns.server.signUp("bob@example.com")
            let id = try await apns.bindDevice(alice)
            let token = APNsTestServer.deviceToken()
            let path = "/v1/device-credentials/\(id)/push-token"

            // Bad input: the documented 422, never a 500.
            let refusals: [([String: Any], String, String)] = [
                (["environment": "production"], "token", "required"),
                (["token": "abc", "environment": "production"], "token", "length"),
                (["token": String(repeating: "a", count: 201), "environment": "production"], "token", "length"),
                (["token": String(repeating: "z", count: 64), "environment": "production"], "token", "not_hex"),
                (["token": token], "environment", "required"),
                (["token": token, "environment": "staging"], "environment", "unknown")
            ]
            for (body, field, reason) in refusals {
                let refused = try await apns.server.send(.PUT, path, json: body, bearer: alice.accessToken)
                #expect(refused.status == 422, "\(body): \(refused.text)")
                #expect(refused.errorBody?.field == field, "\(body): \(refused.text)")
                #expect(refused.errorBody?.reasons == [reason], "\(body): \(refused.text)")
            }
            // Another user's key, or no key: 404, and nothing registered.
            let others = try await apns.server.send(
                .PUT, path, json: ["token": token, "environment": "production"], bearer: bob.accessToken)
            #expect(others.status == 404, "\(others.text)")
            let unknown = try await apns.server.send(
                .PUT, "/v1/device-credentials/\(UUID().uuidString)/push-token",
                json: ["token": token, "environment": "production"], bearer: alice.accessToken)
            #expect(unknown.status == 404)
            #expect(try await apns.server.send(.DELETE, path, bearer: bob.accessToken).status == 404)
            let anonymous = try await apns.server.send(
                .PUT, path, json: ["token": token, "environment": "production"])
            #expect(anonymous.status == 401)
            #expect(try await apns.credential(id).pushToken == nil)

            // The owner registers (uppercase hex is kept lowercase), and the log says so.
            try await apns.register(token.uppercased(), on: id, alice, environment: "development")
            let stored = try await apns.credential(id)
            #expect(stored.pushToken == token && stored.pushEnvironment == "development")
            #expect(stored.pushTokenAt == apns.clock.now.timeIntervalSince1970)
            #expect(try await apns.server.eventTypes(bearer: alice.accessToken).contains("push_token_registered"))
            #expect(try await apns.push(for: id) == 1)

            // Removed: no more pushes.
            let removed = try await apns.server.send(.DELETE, path, bearer: alice.accessToken)
            #expect(removed.status == 204, "\(removed.text)")
            #expect(try await apns.credential(id).pushToken == nil)
            #expect(try await apns.push(for: id) == 0)
        }
    }

    @Test(
        "43 §2 the push is an HTTP/2 POST /3/device/{token} with the APNs headers; its text names only the kind of action",
        arguments: TestDatabase.all)
    func test_43_2_pushTextNamesOnlyTheKindOfAction(database: TestDatabase) async throws {
        try await withAPNs(database) { apns in
            let alice = try await apns.server.signUp()
            let id = try await apns.bindDevice(alice)
            let token = APNsTestServer.deviceToken()
            try await apns.register(token, on: id, alice)
            let verification = UUID()

            #expect(try await apns.push(for: id, verification: verification, action: "withdrawal") == 1)
            let request = try #require(try await apns.apns.waitForRequests(1).first)

            #expect(request.version == .http2)
            #expect(request.path == "/3/device/\(token)")
            #expect(request.providerTokenValid)
            #expect(request.headers["apns-topic"] == APNsTestServer.topic)
            #expect(request.headers["apns-push-type"] == "alert")
            #expect(request.headers["apns-priority"] == "10")
            #expect(request.headers["apns-collapse-id"] == verification.uuidString.lowercased())
            #expect(request.headers["apns-expiration"] == String(Int(apns.clock.now.timeIntervalSince1970) + 300))
            let payload = try JSONDecoder().decode(PushPayload.self, from: request.body)
            #expect(payload.aps.alert.body == "Approve a withdrawal in Latch")
            #expect(payload.aps.alert.title == "Approval requested")
            #expect(payload.aps.sound == "default" && payload.aps.category == "latch.approval")
            #expect(payload.latch == ["kind": "verification", "verification_id": verification.uuidString.lowercased()])
            // What is absent stays an untyped check (a typed decode ignores extra keys).
            let body = try #require(request.json)
            #expect(Set((body["aps"] as? [String: Any])?.keys ?? [:].keys) == ["alert", "sound", "category"])
            #expect(Set(body.keys) == ["aps", "latch"], "nothing else travels: no amount, no address")

            // In Chinese, and for an app's own action Latch does not name.
            #expect(ApprovalPushText(action: .withdrawal, language: .zhHans).body == "在 Latch 中批准一笔提现")
            #expect(ApprovalPushText(action: "move_funds_to_0xabc", language: .en).body == "Approve an action in Latch")
            #expect(try await apns.push(for: id, action: "withdrawal", language: .zhHans) == 1)
            let second = try #require(try await apns.apns.waitForRequests(2).last)
            #expect(try JSONDecoder().decode(PushPayload.self, from: second.body).aps.alert.body == "在 Latch 中批准一笔提现")
        }
    }

    @Test("43 §2 410 Unregistered (and 400 BadDeviceToken) takes the token off its key, and is not retried")
    func test_43_2_unregisteredTokenIsRemovedOn410() async throws {
        try await withAPNs(.sqlite) { apns in
            let alice = try await apns.server.signUp()
            let phone = try await apns.bindDevice(alice)
            let tablet = try await apns.bindDevice(alice, name: "Alice's iPad")
            try await apns.register(APNsTestServer.deviceToken(), on: phone, alice)
            try await apns.register(APNsTestServer.deviceToken(), on: tablet, alice)
            apns.apns.answer(.unregistered, .badDeviceToken)

            #expect(try await apns.push(for: phone) == 2)
            _ = try await apns.apns.waitForRequests(2)

            #expect(try await eventually { try await apns.credential(phone).pushToken == nil })
            #expect(try await eventually { try await apns.credential(tablet).pushToken == nil })
            #expect(try await apns.push(for: phone) == 0, "no token left: nothing queued")
            try await Task.sleep(for: .milliseconds(600)) // a retry would have come by now
            #expect(apns.apns.received.count == 2, "a permanent failure is not retried")
        }
    }

    @Test(
        "43 §2 429 and 5xx are temporary: the durable queue retries with backoff until APNs takes the push",
        arguments: TestDatabase.all)
    func test_43_2_tooManyRequestsIsRetriedWithBackoff(database: TestDatabase) async throws {
        try await withAPNs(database) { apns in
            let alice = try await apns.server.signUp()
            let id = try await apns.bindDevice(alice)
            let token = APNsTestServer.deviceToken()
            try await apns.register(token, on: id, alice)
            apns.apns.answer(.tooManyRequests, .internalServerError)
            let started = Date()

            #expect(try await apns.push(for: id) == 1)
            let requests = try await apns.apns.waitForRequests(3)

            #expect(requests.count == 3, "429, 500, then 200")
            #expect(Set(requests.map(\.body)).count == 1 && Set(requests.map(\.path)) == ["/3/device/\(token)"])
            // The queue waited its backoff (100 ms, then 200 ms) between the attempts.
            #expect(Date().timeIntervalSince(started) >= 0.3)
            #expect(try await apns.credential(id).pushToken == token, "a temporary failure keeps the token")
            try await Task.sleep(for: .milliseconds(500)) // a send after the 200 would have come by now
            #expect(apns.apns.received.count == 3, "delivered once accepted")
        }
    }

    @Test(
        "43 §2 a push whose key no longer holds its token (replaced, unbound, reset) or whose verification expired is not sent"
    )
    func test_43_2_stalePushIsNotSent() async throws {
        try await withAPNs(.sqlite) { apns in
            let alice = try await apns.server.signUp()
            let id = try await apns.bindDevice(alice)
            let token = APNsTestServer.deviceToken()
            try await apns.register(token, on: id, alice)
            let app = apns.server.app
            let settings = try #require(app.config.apns)
            let sender = try APNsSender(settings: settings, clock: apns.clock.latchClock, database: { app.db })
            let now = Int(apns.clock.now.timeIntervalSince1970)
            let push = APNsPush(
                credentialID: try #require(UUID(uuidString: id)), token: token, environment: "production",
                title: "Approval requested", body: "Approve a withdrawal in Latch", verificationID: UUID(),
                expiresAt: now + 300)

            try await sender.send(push)
            #expect(apns.apns.received.count == 1)

            var expired = push
            expired.expiresAt = now - 1
            try await sender.send(expired)
            var replaced = push
            replaced.token = APNsTestServer.deviceToken()
            try await sender.send(replaced)
            let unbound = try await apns.server.send(.DELETE, "/v1/device-credentials/\(id)", bearer: alice.accessToken)
            #expect(unbound.status == 204, "\(unbound.text)")
            try await sender.send(push)

            #expect(apns.apns.received.count == 1, "none of them reached APNs")
        }
    }

    @Test("43 §2 403 ExpiredProviderToken is temporary: the push is retried and delivered")
    func test_43_2_expiredProviderTokenIsRetried() async throws {
        try await withAPNs(.sqlite) { apns in
            let alice = try await apns.server.signUp()
            let id = try await apns.bindDevice(alice)
            try await apns.register(APNsTestServer.deviceToken(), on: id, alice)
            apns.apns.answer(.expiredProviderToken)

            #expect(try await apns.push(for: id) == 1)

            #expect(try await apns.apns.waitForRequests(2).count == 2)
        }
    }

    @Test(
        "43 §2 the provider token (ES256, kid, iss, iat) is shared, made anew after 50 minutes, never older than an hour"
    )
    func test_43_2_apnsProviderTokenRefreshedWithinTheHour() async throws {
        let clock = TestClock()
        try await withAPNs(.sqlite, clock: clock) { apns in
            let alice = try await apns.server.signUp()
            let id = try await apns.bindDevice(alice)
            try await apns.register(APNsTestServer.deviceToken(), on: id, alice)

            // Two pushes ten minutes apart share one token.
            try await apns.push(for: id)
            _ = try await apns.apns.waitForRequests(1)
            clock.advance(by: 10 * 60)
            try await apns.push(for: id)
            _ = try await apns.apns.waitForRequests(2)
            // 61 minutes after the first token: the stand-in would refuse it as expired (older than an hour).
            clock.advance(by: 51 * 60)
            try await apns.push(for: id)
            let requests = try await apns.apns.waitForRequests(3)

            #expect(requests.allSatisfy { $0.providerTokenValid }, "every token passed the stand-in's checks")
            let issued = requests.map { ($0.providerTokenClaims?["iat"] as? NSNumber)?.doubleValue ?? 0 }
            let start = TestClock().now.timeIntervalSince1970
            #expect(issued == [start, start, start + 61 * 60])
            #expect(requests.allSatisfy { $0.providerTokenClaims?["iss"] as? String == APNsTestServer.teamID })
        }
    }

    @Test(
        "43 §2 the provider token: one signing for 100 concurrent sends; a refused one is dropped only after 20 minutes"
    )
    func test_43_2_providerTokenIsSingleFlightAndNotRenewedTooOften() async throws {
        let clock = TestClock()
        let key = P256.Signing.PrivateKey()
        let provider = APNsProviderToken(
            keyID: APNsTestServer.keyID, teamID: APNsTestServer.teamID, privateKey: key, clock: clock.latchClock)

        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 { group.addTask { try await provider.token() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        let madeOnce = await provider.made
        #expect(tokens.count == 1 && madeOnce == 1)
        let first = try #require(tokens.first)

        // Refused 5 minutes in: kept (a new one so soon would be TooManyProviderTokenUpdates).
        clock.advance(by: 5 * 60)
        await provider.refused(first)
        #expect(try await provider.token() == first)
        // Refused 21 minutes in: dropped, the next send signs anew.
        clock.advance(by: 16 * 60)
        await provider.refused(first)
        let second = try await provider.token()
        let madeTwice = await provider.made
        #expect(second != first && madeTwice == 2)
        // 49 minutes later still the same; 50 minutes after it was made, a new one.
        clock.advance(by: 49 * 60)
        #expect(try await provider.token() == second)
        clock.advance(by: 60)
        #expect(try await provider.token() != second)
    }

    @Test("43 §2 LATCH_APNS_* is off by default; a partial or bad configuration names its variable")
    func test_43_2_apnsConfiguration() throws {
        let key = ConfigurationTests.key
        #expect(try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key]).apns == nil)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("AuthKey.p8").path
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let complete = [
            "LATCH_SECRET_KEY": key, "LATCH_APNS_KEY_FILE": keyFile, "LATCH_APNS_KEY_ID": "ABCDE12345",
            "LATCH_APNS_TEAM_ID": "TEAM123456", "LATCH_APNS_TOPIC": "com.example.app"
        ]

        let apns = try #require(try LatchConfig.fromEnvironment(complete).apns)
        #expect(apns.host == "api.push.apple.com" && apns.sandboxHost == "api.sandbox.push.apple.com")
        #expect(apns.keyID == "ABCDE12345" && apns.teamID == "TEAM123456" && apns.topic == "com.example.app")

        let broken: [([String: String], String)] = [
            (complete.filter { $0.key != "LATCH_APNS_TOPIC" }, "LATCH_APNS_TOPIC"),
            (["LATCH_SECRET_KEY": key, "LATCH_APNS_HOST": "127.0.0.1:9"], "LATCH_APNS_KEY_FILE"),
            (complete.merging(["LATCH_APNS_KEY_ID": "short"]) { $1 }, "LATCH_APNS_KEY_ID"),
            (complete.merging(["LATCH_APNS_KEY_FILE": directory.path + "/none.p8"]) { $1 }, "LATCH_APNS_KEY_FILE"),
            (complete.merging(["LATCH_APNS_HOST": "https://api.push.apple.com"]) { $1 }, "LATCH_APNS_HOST"),
            (complete.merging(["LATCH_APNS_CA_FILE": keyFile]) { $1 }, "LATCH_APNS_CA_FILE")
        ]
        for (environment, variable) in broken {
            #expect(throws: ConfigurationError.self, "\(variable)") { try LatchConfig.fromEnvironment(environment) }
            do {
                _ = try LatchConfig.fromEnvironment(environment)
            } catch let error as ConfigurationError {
                #expect(error.variable == variable, "\(error)")
            }
        }
    }
}

/// An approval push's APNs payload, as far as the tests read it.
private struct PushPayload: Decodable {
    struct APS: Decodable {
        struct Alert: Decodable {
            var title: String?
            var body: String?
        }
        var alert: Alert
        var sound: String?
        var category: String?
    }
    var aps: APS
    var latch: [String: String]?
}
