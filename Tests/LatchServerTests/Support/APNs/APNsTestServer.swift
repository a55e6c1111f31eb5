import Crypto
import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// A latchd whose approval pushes go to an `APNsStandIn` (issue 43 §2), and the steps the push tests share.
struct APNsTestServer {
    static let keyID = "KEYID12345"
    static let teamID = "TEAM123456"
    static let topic = "com.example.latch"
    /// Fast retries, so a retried push arrives within the test.
    static let quickRetry = RetryPolicy(attempts: 4, firstDelay: .milliseconds(100), maximumDelay: .milliseconds(400))

    let server: TestServer
    let apns: APNsStandIn

    var latch: LatchServices { server.app.latch }
    var clock: TestClock { server.clock }
}

/// Runs `body` against a latchd on `database` with APNs pointed at a fresh stand-in.
func withAPNs(
    _ database: TestDatabase, clock: TestClock = TestClock(), _ body: (APNsTestServer) async throws -> Void
) async throws {
    let key = P256.Signing.PrivateKey()
    let apns = try await APNsStandIn.start(
        publicKey: key.publicKey, keyID: APNsTestServer.keyID, teamID: APNsTestServer.teamID, now: { clock.now })
    do {
        try await withServer(
            database, clock: clock,
            adjust: { config in
                var settings = APNsSettings(
                    keyID: APNsTestServer.keyID, teamID: APNsTestServer.teamID, privateKey: key,
                    topic: APNsTestServer.topic)
                settings.host = "127.0.0.1:\(apns.port)"
                settings.sandboxHost = "127.0.0.1:\(apns.port)"
                settings.extraTrustRootsPEM = apns.certificatePEM
                config.apns = settings
                config.deliveryRetry = APNsTestServer.quickRetry
                config.deliveryPollInterval = .milliseconds(100)
            }
        ) { server in
            try await body(APNsTestServer(server: server, apns: apns))
        }
    } catch {
        try? await apns.stop()
        throw error
    }
    try await apns.stop()
}

extension APNsTestServer {
    /// A device token as the app would send it.
    static func deviceToken() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// Binds a device key for `tokens`' account; answers its credential id.
    func bindDevice(_ tokens: TokenResponse, name: String = "Alice's iPhone") async throws -> String {
        let bound = try await server.send(
            .POST, "/v1/device-credentials",
            json: ["public_key": DeviceKey().publicKey, "device_name": name, "biometry": "face_id"],
            bearer: tokens.accessToken)
        try #require(bound.status == 201, "\(bound.text)")
        return try bound.decode(DeviceCredentialCreated.self).credentialId
    }

    /// Registers `token` on credential `id`.
    func register(_ token: String, on id: String, _ tokens: TokenResponse, environment: String = "production")
        async throws
    {
        let registered = try await server.send(
            .PUT, "/v1/device-credentials/\(id)/push-token", json: ["token": token, "environment": environment],
            bearer: tokens.accessToken)
        try #require(registered.status == 204, "\(registered.text)")
    }

    /// The credential's row.
    func credential(_ id: String) async throws -> DeviceCredential {
        try #require(try await DeviceCredential.find(UUID(uuidString: id), on: server.app.db))
    }

    /// Queues an approval push for verification `verification` of the user of credential `id`.
    @discardableResult
    func push(
        for id: String, verification: UUID = UUID(), action: String = "withdrawal", language: LatchLanguage = .en
    ) async throws -> Int {
        let user = try await credential(id).userID
        return try await latch.pushApproval(
            user: user, verificationID: verification, action: action, expiresAt: clock.now.timeIntervalSince1970 + 300,
            language: language, on: server.app.db)
    }
}
