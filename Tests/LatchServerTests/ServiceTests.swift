import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import SQLKit
import Testing

@testable import LatchServer

/// Issue 29 §1: business rules tested on the services themselves, without HTTP, where that is clearer:
/// a `Caller` and a database in, a result or a `LatchError` out.
@Suite("Services without HTTP (issue 29 §1)")
struct ServiceTests {
    /// The signed-up account's registering session as a caller.
    static func caller(_ server: TestServer, _ tokens: TokenResponse) async throws -> Caller {
        let user = try #require(UUID(uuidString: tokens.user.id))
        let sql = server.app.db as! any SQLDatabase
        let row = try #require(
            try await sql.raw("SELECT registering_session_id FROM users WHERE id = \(bind: user)").first())
        let session = try #require(try row.decode(column: "registering_session_id", as: UUID?.self))
        return Caller(user: user, session: session, ip: "192.0.2.7", language: .en)
    }

    @Test(
        "29 §1 StepUp: a sign-in within 10 minutes lets a change through, an older one needs a proof (VERIFICATION_REQUIRED)",
        arguments: TestDatabase.all)
    func test_29_1_stepUpWithoutHTTP(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let caller = try await Self.caller(server, try await server.signUp())
            let stepUp = StepUp(latch: server.app.latch, caller: caller, db: server.app.db)

            try await stepUp.requireRecentSignIn(orProof: nil, action: .enableTOTP)
            #expect(try await stepUp.signedInRecently())
            server.clock.advance(by: StepUp.recentSignIn + 1)
            do {
                try await stepUp.requireRecentSignIn(orProof: nil, action: .enableTOTP)
                Issue.record("a stale session went through")
            } catch let error as LatchError {
                #expect(error.code == .verificationRequired && error.field == "verification_token", "\(error)")
            }
        }
    }

    @Test(
        "29 §1 SessionService: signing the others out ends them, keeps the caller's, and is a mailed security change",
        arguments: TestDatabase.all)
    func test_29_1_sessionServiceWithoutHTTP(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let caller = try await Self.caller(server, try await server.signUp())
            _ = try await server.signIn()
            _ = try await server.signIn()
            let sessions = SessionService(latch: server.app.latch, caller: caller, db: server.app.db)

            let before = try await sessions.list()
            try await sessions.signOutOthers()
            let after = try await sessions.list()

            #expect(before.count == 3)
            #expect(after.count == 1 && after.first?.current == true, "\(after)")
            let notice = try #require(await server.mails().last)
            #expect(notice.body.contains("signed out every other device"), "\(notice.body)")
            do {
                try await sessions.signOut(UUID())
                Issue.record("an unknown session was signed out")
            } catch let error as LatchError {
                #expect(error.code == .notFound)
            }
        }
    }

    @Test(
        "29 §1 VerificationService: a fund-password attempt answers a proof bound to the action, redeemed once by StepUp",
        arguments: TestDatabase.all)
    func test_29_1_verificationServiceWithoutHTTP(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let caller = try await Self.caller(server, tokens)
            let (latch, db) = (server.app.latch, server.app.db)
            let verifications = VerificationService(
                latch: latch, metrics: server.app.latchMetrics, caller: caller, db: db)
            let parameters = ["amount": "5.00", "currency": "USDT", "address": "TXabc"]

            let started = try await verifications.start(action: "transfer", parameters: parameters)
            #expect(started.methods.map(\.type) == [.fundPassword], "\(started.methods)")
            let id = try #require(UUID(uuidString: started.verificationId))
            do {
                _ = try await verifications.attempt(id, .fundPassword("135791"))
                Issue.record("a wrong fund password passed")
            } catch let error as LatchError {
                #expect(error.code == .wrongCode, "\(error)")
            }
            guard
                case .result(.passed(let passed)) = try await verifications.attempt(
                    id, .fundPassword(VerificationSamples.fundPassword))
            else {
                Issue.record("one factor answers the proof")
                return
            }

            let redemption = Redemption(latch: latch)
            do {
                _ = try await redemption.redeem(
                    passed.verificationToken, action: "transfer", parameters: ["amount": "500.00"], by: caller, on: db)
                Issue.record("a proof was redeemed for other parameters")
            } catch let error as LatchError {
                #expect(error.code != .internalError, "\(error)")
            }
            let redeemed = try await redemption.redeem(
                passed.verificationToken, action: "transfer", parameters: parameters, by: caller, on: db)
            #expect(redeemed.action == "transfer")
            await #expect(throws: LatchError.self) {
                _ = try await redemption.redeem(
                    passed.verificationToken, action: "transfer", parameters: parameters, by: caller, on: db)
            }
        }
    }

    @Test(
        "29 §1 PasswordService: a wrong current password counts toward the sign-in lock; the right one ends the other devices",
        arguments: TestDatabase.all)
    func test_29_1_passwordServiceWithoutHTTP(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let caller = try await Self.caller(server, try await server.signUp())
            _ = try await server.signIn(device: ["id": "test-device-0"])
            let latch = server.app.latch
            let passwords = PasswordService(
                latch: latch, metrics: server.app.latchMetrics, db: server.app.db, clientIP: caller.ip, language: .en)
            do {
                try await passwords.change(current: "Wrong-Horse-1", new: "Another-Horse-7", by: caller)
                Issue.record("a wrong current password changed the password")
            } catch let error as LatchError {
                #expect(error.code == .wrongCredentials && error.attemptsRemaining == 4, "\(error)")
            }
            try await passwords.change(current: "Correct-Horse-9", new: "Another-Horse-7", by: caller)

            let sessions = try await SessionService(latch: latch, caller: caller, db: server.app.db).list()
            #expect(sessions.map(\.current) == [true], "only the caller's session is left: \(sessions)")
            #expect(try await server.signIn(password: "Correct-Horse-9").status == 401)
            #expect(try await server.signIn(password: "Another-Horse-7").status == 200)
        }
    }
}
