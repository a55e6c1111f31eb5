import FluentKit
import Foundation
import HTTPTypes
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 14 §4: the password check, the sign-in tail, the identity sign-in, the new-device screening
/// and the passkey sign-in are services called without HTTP (no `Request`): an application's services
/// and its database are enough.
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
                "correct horse battery", of: user, throttleKey: .email("guard@example.com"))
            #expect(matched.id == user.id)
            let refusal = await #expect(throws: LatchError.self) {
                try await guardian.checkPassword(
                    "wrong horse battery", of: user, throttleKey: .email("guard@example.com"))
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
                for: user, device: DeviceInfo(id: "device-1"), ip: "192.0.2.1", event: .registered, method: .password,
                now: server.clock.now, on: app.db)

            #expect(tokens.sessionId == session.id?.uuidString.lowercased())
            let events = try await SecurityEvent.query(on: app.db).filter(\.$userID == user.id).all()
            #expect(
                events.map(\.type) == ["registered"] && events.first?.sessionID == session.id
                    && events.first?.ip == "192.0.2.1")
        }
    }

    /// The types of `user`'s security events, sorted by name (the test clock stands still, so the
    /// times cannot order them).
    private func eventTypes(of user: UUID?, on database: any Database) async throws -> [String] {
        try await SecurityEvent.query(on: database).filter(\.$userID == user).all().map(\.type).sorted()
    }

    /// Which of the device ids these tests use the user's known devices hold (they are stored as keyed
    /// hashes, issue 20 §4, so they are recognised, not read back).
    private func knownDevices(of user: UUID?, on database: any Database, in app: LatchApplication) async throws
        -> Set<String>
    {
        let stored = Set(try await KnownDevice.query(on: database).filter(\.$userID == user!).all().map(\.deviceID))
        let candidates = ["phone-1", "phone-2", "kiosk-1", TestServer.testDevice["id"]!]
        let known = candidates.filter {
            stored.contains(KnownDevice.storedID(of: $0, user: user!, secrets: app.latch.secrets))
        }
        #expect(known.count == stored.count, "every stored device is one of the candidates, hashed")
        return Set(known)
    }

    @Test(
        "test_I14 IdentitySignIn without a request: a first SMS sign-in creates the account and trusts its device; the next from another device is told (no email, no TOTP)",
        arguments: TestDatabase.all)
    func test_I14_identitySignInWithoutHTTP(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let app = server.app
            let service = IdentitySignIn(latch: app.latch, db: app.db, clientIP: "192.0.2.7", language: .en)
            let proven = ProvenIdentity(provider: .phone, subject: "+8613800000000")

            let first = try await service.signIn(with: proven, device: DeviceInfo(id: "phone-1"))
            let owner = try #require(
                try await Identity.owner(
                    of: .phone, subject: "+8613800000000", identities: app.latch.identities, on: app.db))
            #expect(first.sessionId.isEmpty == false)
            #expect(try await knownDevices(of: owner.id, on: app.db, in: app) == ["phone-1"])
            #expect(try await eventTypes(of: owner.id, on: app.db) == ["registered"])

            let second = try await service.signIn(with: proven, device: DeviceInfo(id: "phone-2"))
            #expect(second.sessionId != first.sessionId)
            #expect(try await User.query(on: app.db).count() == 1)
            #expect(try await knownDevices(of: owner.id, on: app.db, in: app) == ["phone-1", "phone-2"])
            #expect(
                try await eventTypes(of: owner.id, on: app.db) == ["new_device_signed_in", "registered", "signed_in"])
        }
    }

    @Test(
        "test_I14 NewDeviceScreening without a request: a known device passes, an unknown one gets a login challenge and a mailed code",
        arguments: TestDatabase.all)
    func test_I14_newDeviceScreeningWithoutHTTP(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp() // from TestServer.testDevice, which the account now knows
            let app = server.app
            let user = try #require(try await User.query(on: app.db).filter(\.$email == "alice@example.com").first())
            let screening = NewDeviceScreening(latch: app.latch, db: app.db, clientIP: nil, language: .en)
            let mailsBefore = await server.mails().count

            try await screening.screen(user, device: DeviceInfo(id: TestServer.testDevice["id"]))
            let refusal = await #expect(throws: LatchError.self) {
                try await screening.screen(user, device: DeviceInfo(id: "stranger-laptop"))
            }

            #expect(refusal?.code == .verificationRequired && refusal?.status.code == 403)
            let challengeID = try #require(refusal?.challengeId.flatMap(UUID.init(uuidString:)))
            let challenge = try #require(try await LoginChallenge.find(challengeID, on: app.db))
            #expect(challenge.deviceID == "stranger-laptop" && challenge.method == "email")
            let mails = await server.mails()
            #expect(mails.count == mailsBefore + 1 && mails.last?.code != nil)
            #expect(try await knownDevices(of: user.id, on: app.db, in: app) == [TestServer.testDevice["id"]!])
        }
    }

    @Test(
        "test_I14 PasskeySignIn without a request: an assertion signs in and remembers the device; its challenge cannot be replayed",
        arguments: TestDatabase.all)
    func test_I14_passkeySignInWithoutHTTP(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            var authenticator = SoftwareAuthenticator()
            try await server.registerPasskey(&authenticator, bearer: tokens.accessToken)
            let options = try await server.passkeySignInOptions()
            let assertion = try authenticator.assert(
                challenge: options.options.challenge, rpID: Passkeys.rpID, origin: Passkeys.origin)
            let app = server.app
            let service = PasskeySignIn(latch: app.latch, db: app.db, clientIP: nil, language: .en)

            let signedIn = try await service.signIn(
                challengeID: options.challengeId, credential: assertion, device: DeviceInfo(id: "kiosk-1"))
            let replay = await #expect(throws: LatchError.self) {
                try await service.signIn(
                    challengeID: options.challengeId, credential: assertion, device: DeviceInfo(id: "kiosk-1"))
            }

            #expect(signedIn.sessionId != tokens.sessionId)
            let user = try #require(try await User.query(on: app.db).filter(\.$email == "alice@example.com").first())
            #expect(try await knownDevices(of: user.id, on: app.db, in: app).contains("kiosk-1"))
            #expect(replay?.reasons == ["challenge_unknown_or_used"])
            #expect(replay?.status.code == 401)
        }
    }
}
