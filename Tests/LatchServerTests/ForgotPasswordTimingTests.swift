import FluentKit
import Foundation
import LatchServer
import NIOCore
import NIOHTTP1
import SQLKit
import Testing

/// Issue 10 §3: `POST /v1/password/forgot` does the same work whether or not the account exists,
/// so its answer and its timing do not tell (the timing itself is measured by
/// `scripts/bench/forgot_timing.py`, whose figures are in docs).
@Suite("password/forgot does the same work for unknown addresses (issue 10 §3)")
struct ForgotPasswordTimingTests {
    struct Row: Decodable {
        let type: String
        let user_id: UUID?
    }

    @Test(
        "issue 10 §3: forgot writes the same rows (a code, an event) for an existing and an unknown address",
        arguments: TestDatabase.all)
    func test_10_forgotDoesTheSameWorkEitherWay(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let sql = try #require(server.app.db as? any SQLDatabase)
            func counts() async throws -> (codes: Int, events: [Row]) {
                let codes =
                    try await sql.raw("SELECT COUNT(*) AS n FROM email_codes").first(decoding: [String: Int].self)?["n"]
                    ?? -1
                let events = try await sql.raw(
                    "SELECT type, user_id FROM security_events WHERE type = 'password_reset_requested'"
                )
                .all(decoding: Row.self)
                return (codes, events)
            }
            let before = try await counts()

            let existing = try await server.send(.POST, "/v1/password/forgot", json: ["email": "alice@example.com"])
            let afterExisting = try await counts()
            let unknown = try await server.send(.POST, "/v1/password/forgot", json: ["email": "nobody@example.com"])
            let afterUnknown = try await counts()

            #expect(existing.status == 202 && unknown.status == 202 && existing.data == unknown.data)
            #expect(
                afterExisting.codes - before.codes == 1 && afterUnknown.codes - afterExisting.codes == 1,
                "one code row each")
            #expect(afterExisting.events.count - before.events.count == 1, "one event for the account")
            #expect(
                afterUnknown.events.count - afterExisting.events.count == 1,
                "and one, without a user, for the unknown address")
            #expect(afterUnknown.events.filter { $0.user_id == nil }.count == 1)
            let mailed = await server.app.latch.outbox?.messages(to: "nobody@example.com") ?? []
            #expect(mailed.isEmpty, "nothing is sent to an address without an account")
        }
    }
}
