import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 28 §2: "a factor offered for a held action must be older than the hold". The hold is the first
/// line; these tests take it away (the hold's row deleted, as a route that forgot to declare its change
/// would leave it) and show the second line still stands.
@Suite("A held action's factors are older than the hold (issue 28 §2)")
struct HeldActionFactorTests {
    static let day: Double = 24 * 3600

    @Test(
        "28 §2 a factor offered for a held action must be older than the hold: without the hold's row, a young TOTP and a young device key are neither offered for a withdrawal nor accepted, the old fund password and device key are; the young ones answer an action that is not held, and the held one once as old as the hold",
        arguments: TestDatabase.all)
    func test_28_2_aFactorOfferedForAHeldActionMustBeOlderThanTheHold(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let first = try await server.signUp()
            try await server.setFundPassword(bearer: first.accessToken)
            let oldKey = try await server.bindDevice(DeviceKey(), bearer: first.accessToken)
            server.clock.advance(by: Self.day + 60)
            let tokens = try await server.signIn().decode(TokenResponse.self)
            let authenticator = try await server.activateTOTP(bearer: tokens.accessToken)
            let youngKey = try await server.bindDevice(DeviceKey(), name: "New phone", bearer: tokens.accessToken)
            #expect(try await server.startVerification(bearer: tokens.accessToken).errorCode == "SECURITY_HOLD")
            // The first line taken away: what a route that forgot to start the hold would leave.
            try await server.app.db.sql.raw("DELETE FROM security_holds").run()

            let held = try await server.startedVerification(bearer: tokens.accessToken)
            #expect(held.methods.map(\.type) == [.biometric, .fundPassword], "\(held.methods)")
            #expect(held.methods.first?.credentialIds == [oldKey], "only the key older than the hold")
            let byTOTP = try await server.attempt(
                held.verificationId,
                VerificationAttempt(method: .totp, code: authenticator.code(at: server.clock.now)),
                bearer: tokens.accessToken)
            #expect(byTOTP.status == 422 && byTOTP.errorBody?.reasons == ["not_offered"], "\(byTOTP.text)")
            let notHeld = try await server.startedVerification("transfer", bearer: tokens.accessToken)
            #expect(Set(notHeld.methods.map(\.type)) == [.biometric, .totp, .fundPassword], "\(notHeld.methods)")
            #expect(Set(notHeld.methods.first?.credentialIds ?? []) == [oldKey, youngKey])

            server.clock.advance(by: Self.day + 1)
            let later = try await server.signIn().decode(TokenResponse.self)
            let seasoned = try await server.startedVerification(bearer: later.accessToken)
            #expect(seasoned.methods.map(\.type) == [.biometric, .totp, .fundPassword], "\(seasoned.methods)")
            #expect(Set(seasoned.methods.first?.credentialIds ?? []) == [oldKey, youngKey])
            let passed = try await server.attempt(
                seasoned.verificationId,
                VerificationAttempt(method: .totp, code: authenticator.code(at: server.clock.now)),
                bearer: later.accessToken)
            #expect(passed.status == 200, "\(passed.text)")
        }
    }

    @Test(
        "28 §2 a young fund password set by another session is not offered for a held action without the hold, and the young account's own setup is: the registering session's fund password, passkey and device key answer a withdrawal on day one",
        arguments: TestDatabase.all)
    func test_28_2_theNewUsersOwnSetupAnswersAtOnce(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let first = try await server.signUp()
            try await server.setFundPassword(bearer: first.accessToken)
            var authenticator = SoftwareAuthenticator()
            _ = try await server.registerPasskey(&authenticator, bearer: first.accessToken)
            _ = try await server.bindDevice(DeviceKey(), bearer: first.accessToken)
            let setUp = try await server.startedVerification(bearer: first.accessToken)
            #expect(setUp.methods.map(\.type) == [.biometric, .passkey, .fundPassword], "\(setUp.methods)")

            // Another session of the same young account: its additions are held, and young.
            let other = try await server.signUp("bob@example.com")
            let thief = try await server.signIn("bob@example.com").decode(TokenResponse.self)
            try await server.setFundPassword(bearer: thief.accessToken)
            try await server.app.db.sql.raw("DELETE FROM security_holds").run()
            let refused = try await server.startVerification(bearer: thief.accessToken)
            #expect(refused.errorCode == "NO_VERIFICATION_METHOD", "\(refused.text)")
            #expect(try await server.startVerification("transfer", bearer: other.accessToken).status == 201)
        }
    }

    @Test(
        "28 §2 an operator's lift is kept on the account's row (users.hold_lifted_at), which a held action reads instead of searching the security log: the key added before the lift answers a withdrawal with the log emptied, and the migration fills the column from the log",
        arguments: TestDatabase.all)
    func test_28_2_operatorLiftIsReadFromTheAccountRow(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(database) { server in
            let first = try await server.signUp()
            try await server.setFundPassword(bearer: first.accessToken)
            server.clock.advance(by: Self.day + 60)
            let tokens = try await server.signIn().decode(TokenResponse.self)
            let youngKey = try await server.bindDevice(DeviceKey(), name: "New phone", bearer: tokens.accessToken)
            let userID = try #require(UUID(uuidString: tokens.user.id))
            let liftedAt = server.clock.now.timeIntervalSince1970
            let lifted = try await server.send(
                .DELETE, "/v1/admin/users/\(tokens.user.id)/hold", bearer: AdminTests.adminKey)
            #expect(lifted.status == 204, "\(lifted.text)")
            func storedLift() async throws -> Double? {
                try await server.app.db.sql.raw("SELECT hold_lifted_at FROM users WHERE id = \(bind: userID)")
                    .first()?.decode(column: "hold_lifted_at", as: Double?.self)
            }
            let stored = try await storedLift()
            #expect(stored == liftedAt, "\(String(describing: stored)) vs \(liftedAt)")

            // The log no longer tells of the lift: the account's row alone admits the key added before it.
            try await server.app.db.sql.raw("DELETE FROM security_events").run()
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            #expect(started.methods.first?.credentialIds == [youngKey], "\(started.methods)")

            // Lifts made before the column are filled from the log by the migration (its statement, run again).
            try await server.app.db.sql.raw(
                """
                INSERT INTO security_events (id, user_id, type, created_at, actor)
                VALUES (\(bind: UUID()), \(bind: userID), 'security_hold_ended', 1234.5, 'operator')
                """
            ).run()
            try await server.app.db.sql.raw("UPDATE users SET hold_lifted_at = NULL").run()
            try await AddHoldLiftedAt.fillFromSecurityLog(on: server.app.db)
            let filled = try await storedLift()
            #expect(filled == 1234.5, "\(String(describing: filled))")
        }
    }
}

/// The rule as a pure value (issue 28 §2), at its edges.
@Suite("FactorSeasoning (issue 28 §2)")
struct FactorSeasoningTests {
    static let day: Double = 24 * 3600
    let registering = UUID()
    let other = UUID()

    func seasoning(accountAge: Double, liftedAgo: Double? = nil) -> FactorSeasoning {
        let now = 100 * Self.day
        return FactorSeasoning(
            holdLength: Self.day, now: now, accountCreatedAt: now - accountAge, registeringSession: registering,
            liftedAt: liftedAgo.map { now - $0 })
    }

    @Test("28 §2 a factor exactly as old as the hold answers; one second younger does not, from any session")
    func test_28_2_ageAtTheEdge() {
        let rule = seasoning(accountAge: 10 * Self.day)
        let now = 100 * Self.day
        #expect(rule.mayAnswerHeldAction(.init(addedAt: now - Self.day, session: other)))
        #expect(!rule.mayAnswerHeldAction(.init(addedAt: now - Self.day + 1, session: other)))
        #expect(!rule.mayAnswerHeldAction(.init(addedAt: now - 60, session: registering)), "the account is old")
        #expect(!rule.mayAnswerHeldAction(.init(addedAt: now - 60, session: nil)), "not made with an old account")
    }

    @Test(
        "28 §2 the new user setting up: the registering session's or the sign-up's additions while the account is younger than the hold, never another session's"
    )
    func test_28_2_settingUp() {
        let rule = seasoning(accountAge: 3600)
        let now = 100 * Self.day
        #expect(rule.mayAnswerHeldAction(.init(addedAt: now - 60, session: registering)))
        #expect(rule.mayAnswerHeldAction(.init(addedAt: now - 3600, session: nil)), "made with the account")
        #expect(!rule.mayAnswerHeldAction(.init(addedAt: now - 60, session: other)))
    }

    @Test("28 §2 an operator's lift admits the factors added before it, not those added after")
    func test_28_2_operatorLift() {
        let rule = seasoning(accountAge: 10 * Self.day, liftedAgo: 600)
        let now = 100 * Self.day
        #expect(rule.mayAnswerHeldAction(.init(addedAt: now - 3600, session: other)))
        #expect(!rule.mayAnswerHeldAction(.init(addedAt: now - 60, session: other)))
    }
}
