import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 20 §2: one account cannot starve everyone's mail. Its own security changes are priced per
/// account (`LATCH_SECURITY_MAILS_PER_HOUR`, 429 with `retry_after` once spent), and notices wait in a
/// lane of their own: however full it is, a stranger's code is accepted (202) into the code lane, is
/// claimed by a send slot notices cannot hold, and goes out once a working relay is there.
@Suite("One account cannot starve everyone's mail (issue 20 §2)")
struct NoticeFloodTests {
    static let alice = "alice@example.com"

    static func setCode(_ code: String, _ server: TestServer, bearer: String) async throws -> TestResponse {
        try await server.send(.PUT, "/v1/me/anti-phishing-code", json: ["code": code], bearer: bearer)
    }

    static func depth(_ server: TestServer, lane: DeliveryLane) async throws -> Int {
        let latch = server.app.latch
        return try await DeliveryJobStore(secrets: latch.secrets, capacity: 0, kind: latch.databaseKind)
            .backlog(channel: OutgoingMessage.emailChannel, lane: lane, on: server.app.db)
    }

    @Test(
        "review_2 an account's own security changes are priced per account: over the hour's budget 429 RATE_LIMITED, nothing changed",
        arguments: TestDatabase.all)
    func test_20_2_changesArePricedPerAccount(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.securityMailsPerHour = 2 }) { server in
            let alice = try await server.signUp()
            let bob = try await server.signUp("bob@example.com")
            let first = try await Self.setCode("Blue-Heron", server, bearer: alice.accessToken)
            let second = try await Self.setCode("Red-Fox", server, bearer: alice.accessToken)
            let third = try await Self.setCode("Green-Owl", server, bearer: alice.accessToken)
            let status = try await server.send(.GET, "/v1/me/security", bearer: alice.accessToken)
            let bobsChange = try await Self.setCode("Grey-Wolf", server, bearer: bob.accessToken)
            server.clock.advance(by: 3601)
            let fresh = try await server.signIn().decode(TokenResponse.self) // a change needs a recent sign-in
            let nextHour = try await Self.setCode("Green-Owl", server, bearer: fresh.accessToken)

            #expect(first.status == 204 && second.status == 204, "\(first.text) \(second.text)")
            #expect(third.status == 429 && third.errorCode == "RATE_LIMITED", "\(third.text)")
            #expect((third.errorBody?.retryAfter ?? 0) > 0 && third.headers.first(name: "Retry-After") != nil)
            #expect(
                (try? status.decode(AccountSecurityStatus.self))?.antiPhishingCode == "Red-Fox",
                "the refused change did not happen")
            #expect(bobsChange.status == 204, "another account has its own budget: \(bobsChange.text)")
            #expect(nextHour.status == 204, "the budget is an hour's: \(nextHour.text)")
        }
    }

    @Test(
        "review_2 with a relay that never answers, one account floods the notice lane full; a stranger's registration code is still accepted into the code lane, claimed, and delivered once a working relay is configured",
        arguments: TestDatabase.all)
    func test_20_2_codesGoOutWhileOneAccountFloods(database: TestDatabase) async throws {
        let capacity = 10
        let silent = try await SMTPSink.start(["--silent"])
        let working = try await SMTPSink.start()
        defer {
            silent.stop()
            working.stop()
        }
        let clock = TestClock()
        let development = try await TestServer.start(database, clock: clock)
        let alice = try await development.signUp()
        try await development.stop()

        // latchd with mail to the silent relay: every send hangs until the SMTP timeout.
        let flooded = try await TestServer.start(
            database, clock: clock, sharing: development.location,
            adjust: {
                $0.smtpURL = "smtp+insecure://127.0.0.1:\(silent.port)"
                $0.mailFrom = "latch@latch.test"
                $0.deliveryQueueCapacity = capacity
                $0.securityMailsPerHour = 10_000 // the lanes alone, not the budget, are shown here
            })
        var answers: [UInt] = []
        var codeAnswer: TestResponse
        var noticeDepth = 0
        var codeDepth = 0
        var claimed = false
        do {
            for index in 0..<(capacity * 3) {
                answers.append(try await Self.setCode("Flood-\(index)", flooded, bearer: alice.accessToken).status)
            }
            noticeDepth = try await Self.depth(flooded, lane: .notice)
            codeAnswer = try await flooded.send(
                .POST, "/v1/registrations",
                json: ["email": "bob@example.com", "password": "Correct-Horse-9", "terms_accepted": true])
            codeDepth = try await Self.depth(flooded, lane: .code)
            // The code is claimed by a send slot of its own although every notice slot hangs on the relay.
            claimed = try await eventually(within: .seconds(30)) {
                let rows = try await flooded.app.db.sql.raw(
                    "SELECT COUNT(*) AS n FROM delivery_jobs WHERE lane = 'code' AND claimed_by IS NOT NULL"
                ).all()
                return try rows.first?.decode(column: "n", as: Int.self) == 1
            }
        } catch {
            try? await flooded.stop()
            throw error
        }
        try await flooded.stop()
        print("issue 20 §2 flood: notice lane \(noticeDepth)/\(capacity), code lane \(codeDepth), answers \(answers)")

        #expect(answers.prefix(capacity).allSatisfy { $0 == 204 }, "\(answers)")
        #expect(
            answers.dropFirst(capacity).allSatisfy { $0 == 503 }, "a full notice lane refuses the change: \(answers)")
        #expect(noticeDepth == capacity)
        #expect(codeAnswer.status == 202, "the stranger's registration: \(codeAnswer.text)")
        #expect(codeDepth == 1)
        #expect(claimed, "the code's job was claimed while the notices' sends hung")

        // A working relay: the stranger's code goes out.
        let delivering = try await TestServer.start(
            database, clock: clock, sharing: development.location,
            adjust: {
                $0.smtpURL = "smtp://127.0.0.1:\(working.port)"
                $0.mailFrom = "latch@latch.test"
                $0.deliveryQueueCapacity = capacity
            })
        do {
            let delivered = try await eventually(within: .seconds(60)) {
                try working.messages().contains { $0.rcpt_tos.contains("bob@example.com") }
            }
            #expect(delivered, "the stranger's registration code was delivered")
        } catch {
            try? await delivering.stop()
            throw error
        }
        try await delivering.stop()
    }
}
