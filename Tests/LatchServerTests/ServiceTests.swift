import Fluent
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
}
