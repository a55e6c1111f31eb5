import Fluent
import Foundation
import LatchCore
import Testing

@testable import LatchServer

/// Issue 14 §4: the password check and the sign-in tail are services called without HTTP (no
/// `Request`): an application's services and its database are enough.
@Suite("Issue 14 sign-in services without HTTP")
struct SignInServicesTests {
    @Test(
        "test_I14 SecretGuard checks a password without a request: right → the user, wrong → AUTH_001 with attempts left",
        arguments: TestDatabase.all)
    func test_I14_passwordCheckWithoutHTTP(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let app = server.app
            let hash = try await app.latch.passwords.hash("correct horse battery")
            let user = User(
                email: "guard@example.com", emailVerified: true, passwordHash: hash, nickname: nil, createdAt: 0)
            try await user.create(on: app.db)
            let guardian = SecretGuard(
                latch: app.latch, metrics: app.latchMetrics, db: app.db, clientIP: nil, language: .en)

            let matched = try await guardian.checkPassword(
                "correct horse battery", of: user, throttleKey: "email:guard@example.com")
            #expect(matched.id == user.id)
            let refusal = await #expect(throws: LatchError.self) {
                try await guardian.checkPassword(
                    "wrong horse battery", of: user, throttleKey: "email:guard@example.com")
            }
            #expect(refusal?.code == .wrongCredentials && refusal?.status.code == 401)
            #expect((refusal?.attemptsRemaining ?? 0) > 0)
            let failures = try await SecurityEvent.query(on: app.db).filter(\.$userID == user.id).filter(
                \.$type == "sign_in_failed"
            ).count()
            #expect(failures == 1)
        }
    }

    @Test(
        "test_I14 startSession (the tail of every grant) starts a session and records the event, without a request",
        arguments: TestDatabase.all)
    func test_I14_signInTailWithoutHTTP(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let app = server.app
            let user = User(
                email: "tail@example.com", emailVerified: true, passwordHash: nil, nickname: nil, createdAt: 0)
            try await user.create(on: app.db)
            let (session, tokens) = try await app.latch.startSession(
                for: user, device: DeviceInfo(id: "device-1"), ip: "192.0.2.1", event: .registered,
                now: server.clock.now, on: app.db)

            #expect(tokens.sessionId == session.id?.uuidString.lowercased())
            let events = try await SecurityEvent.query(on: app.db).filter(\.$userID == user.id).all()
            #expect(
                events.map(\.type) == ["registered"] && events.first?.sessionID == session.id
                    && events.first?.ip == "192.0.2.1")
        }
    }
}
