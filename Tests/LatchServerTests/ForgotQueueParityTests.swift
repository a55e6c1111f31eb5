import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import SQLKit
import Testing

@testable import LatchServer

/// Issue 20 §3: with mail over SMTP (the durable queue), `POST /v1/password/forgot` does the same work
/// and gives the same answer for an address without an account: the queue row is sealed and written
/// for it too (in a transaction rolled back), and a full queue answers 503 for both.
@Suite("password/forgot alike with SMTP (issue 20 §3)")
struct ForgotQueueParityTests {
    /// An account made on a development server, then a server with SMTP (to a port where nothing
    /// answers, so queued mail stays queued) on the same database, with `capacity` queue rows.
    static func withSMTPServer(
        _ database: TestDatabase, capacity: Int, _ body: (DeliveryTestServer) async throws -> Void
    ) async throws {
        let development = try await TestServer.start(database)
        try await development.signUp()
        try await development.stop()
        let server = try await DeliveryTestServer.start(
            database, smtpURL: "smtp+insecure://127.0.0.1:9", sharing: development.location,
            adjust: { $0.deliveryQueueCapacity = capacity })
        do {
            try await body(server)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }

    static func queuedJobs(_ server: DeliveryTestServer) async throws -> Int {
        let rows = try await server.app.db.sql.raw("SELECT COUNT(*) AS n FROM delivery_jobs").all()
        return try rows.first?.decode(column: "n", as: Int.self) ?? -1
    }

    @Test(
        "review_3 a full queue answers 503 to forgot for an account and for an unknown address alike",
        arguments: TestDatabase.all)
    func test_20_3_fullQueueAnswersAlike(database: TestDatabase) async throws {
        try await Self.withSMTPServer(database, capacity: 0) { server in
            let existing = try await server.post("/v1/password/forgot", json: ["email": "alice@example.com"])
            let unknown = try await server.post("/v1/password/forgot", json: ["email": "nobody@example.com"])

            #expect(existing.status == 503 && unknown.status == 503, "\(existing.text) \(unknown.text)")
            #expect(existing.errorBody?.reasons == ["delivery_queue_full"])
            #expect(unknown.errorBody?.reasons == existing.errorBody?.reasons)
        }
    }

    @Test(
        "review_3 with room in the queue both answer 202 byte for byte; only the account's mail stays queued",
        arguments: TestDatabase.all)
    func test_20_3_onlyTheAccountsMailIsQueued(database: TestDatabase) async throws {
        try await Self.withSMTPServer(database, capacity: 100) { server in
            let before = try await Self.queuedJobs(server)
            let existing = try await server.post("/v1/password/forgot", json: ["email": "alice@example.com"])
            let afterExisting = try await Self.queuedJobs(server)
            let unknown = try await server.post("/v1/password/forgot", json: ["email": "nobody@example.com"])
            let afterUnknown = try await Self.queuedJobs(server)

            #expect(existing.status == 202 && unknown.status == 202 && existing.data == unknown.data)
            #expect(afterExisting == before + 1, "the account's mail is queued")
            #expect(afterUnknown == afterExisting, "the unknown address's row was written and rolled back")
            let nobody = DeliveryJobStore.recipientKey(of: "nobody@example.com", secrets: server.app.latch.secrets)
            let rows = try await server.app.db.sql.raw(
                "SELECT COUNT(*) AS n FROM delivery_jobs WHERE recipient_key = \(bind: nobody)"
            ).all()
            #expect(try rows.first?.decode(column: "n", as: Int.self) == 0, "nothing for an address without an account")
        }
    }
}
