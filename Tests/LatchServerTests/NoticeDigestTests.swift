import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 20 §2 (b): repeated notices to one account are coalesced. At most one notice mail per
/// account in each `LATCH_NOTICE_DIGEST_SECONDS` window; a change within the window is a
/// `notice_digests` row written in its own transaction, and one digest mail (with the anti-phishing
/// code and a freeze link) lists them once the window has passed — even after a restart.
@Suite("Repeated notices to one account become one digest (issue 20 §2)")
struct NoticeDigestTests {
    static let window = 300

    static func setCode(_ code: String, _ server: TestServer, bearer: String) async throws {
        let answer = try await server.send(.PUT, "/v1/me/anti-phishing-code", json: ["code": code], bearer: bearer)
        try #require(answer.status == 204, "\(answer.text)")
    }

    static func notices(_ server: TestServer) async -> [OutgoingMessage] {
        await server.mails().filter { $0.lane == .notice }
    }

    static func pendingRows(_ server: TestServer) async throws -> Int {
        try await (server.app.db as! any SQLDatabase).raw("SELECT id FROM notice_digests").all().count
    }

    static func flush(_ server: TestServer) async throws -> Int {
        try await NoticeDigests.flushDue(
            services: server.app.latch, now: server.clock.now.timeIntervalSince1970, on: server.app.db,
            logger: server.app.logger)
    }

    @Test(
        "review_2_b three changes in one window: one notice at once, then one digest listing the other two once the window has passed (anti-phishing code, freeze link)",
        arguments: TestDatabase.all)
    func test_20_2_threeChangesOneNoticeOneDigest(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.noticeDigestSeconds = Self.window }) { server in
            let alice = try await server.signUp()
            try await Self.setCode("Blue-Heron", server, bearer: alice.accessToken)
            server.clock.advance(by: 60)
            try await Self.setCode("Red-Fox", server, bearer: alice.accessToken)
            server.clock.advance(by: 60)
            try await Self.setCode("Green-Owl", server, bearer: alice.accessToken)

            let immediate = await Self.notices(server)
            #expect(immediate.count == 1, "one notice mail in the window: \(immediate.map(\.subject))")
            #expect(try await Self.pendingRows(server) == 2, "the other two changes are digest rows")
            #expect(try await Self.flush(server) == 0, "the window has not passed: no digest yet")
            #expect(await Self.notices(server).count == 1)

            server.clock.advance(by: Double(Self.window - 120 + 1))
            // (The flusher of this instance may be first: the mails, not the return value, are counted.)
            _ = try await Self.flush(server)
            let all = await Self.notices(server)
            try #require(all.count == 2, "one digest after the window: \(all.map(\.subject))")
            let digest = all[1]
            #expect(digest.subject.hasPrefix("2 "), "the digest lists two changes: \(digest.subject)")
            #expect(
                digest.body.components(separatedBy: "anti-phishing code was set or changed").count - 1 == 2,
                "\(digest.body)")
            #expect(digest.body.contains("Green-Owl"), "the digest shows the anti-phishing code")
            #expect(digest.body.contains("/account#freeze="), "the digest carries a freeze link")
            #expect(try await Self.pendingRows(server) == 0, "the rows are gone with the digest")
            #expect(try await Self.flush(server) == 0, "nothing is sent twice")

            // The digest opened a new window: a change within it is folded again.
            try await Self.setCode("Grey-Wolf", server, bearer: alice.accessToken)
            #expect(await Self.notices(server).count == 2)
            #expect(try await Self.pendingRows(server) == 1)
        }
    }

    @Test(
        "review_2_b with LATCH_NOTICE_DIGEST_SECONDS=0 every change mails its own notice", arguments: TestDatabase.all)
    func test_20_2_zeroTurnsDigestsOff(database: TestDatabase) async throws {
        try await withServer(database) { server in
            #expect(server.app.latch.config.noticeDigestSeconds == 0, "the test server's default is off")
            let alice = try await server.signUp()
            try await Self.setCode("Blue-Heron", server, bearer: alice.accessToken)
            try await Self.setCode("Red-Fox", server, bearer: alice.accessToken)
            try await Self.setCode("Green-Owl", server, bearer: alice.accessToken)
            #expect(await Self.notices(server).count == 3)
            #expect(try await Self.pendingRows(server) == 0)
        }
    }

    @Test(
        "review_2_b the digest's rows are in the database: a restart between the change and the window's end still mails the digest",
        arguments: TestDatabase.all)
    func test_20_2_digestSurvivesARestart(database: TestDatabase) async throws {
        let clock = TestClock()
        let adjust: (inout LatchConfig) -> Void = { $0.noticeDigestSeconds = Self.window }
        let first = try await TestServer.start(database, clock: clock, adjust: adjust)
        let alice = try await first.signUp()
        try await Self.setCode("Blue-Heron", first, bearer: alice.accessToken)
        try await Self.setCode("Red-Fox", first, bearer: alice.accessToken)
        #expect(await Self.notices(first).count == 1)
        try await first.stop()

        let second = try await TestServer.start(database, clock: clock, sharing: first.location, adjust: adjust)
        do {
            clock.advance(by: Double(Self.window + 1))
            _ = try await Self.flush(second)
            let digests = await Self.notices(second)
            try #require(digests.count == 1, "the restarted server mails the digest: \(digests.map(\.subject))")
            #expect(digests[0].subject.hasPrefix("1 "), "\(digests[0].subject)")
            #expect(digests[0].body.contains("anti-phishing code was set or changed"))
            #expect(digests[0].body.contains("Red-Fox"))
        } catch {
            try? await second.stop()
            throw error
        }
        try await second.stop()
    }

    @Test(
        "review_2_b two flushers at once (two instances) send one digest: the window's charge and the rows' DELETE claim them",
        arguments: TestDatabase.all)
    func test_20_2_concurrentFlushersSendOnce(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.noticeDigestSeconds = Self.window }) { server in
            let alice = try await server.signUp()
            try await Self.setCode("Blue-Heron", server, bearer: alice.accessToken)
            try await Self.setCode("Red-Fox", server, bearer: alice.accessToken)
            server.clock.advance(by: Double(Self.window + 1))
            async let one = Self.flush(server)
            async let two = Self.flush(server)
            let sent = try await one + two
            #expect(sent <= 1, "at most one of them sends (the instance's own flusher may be first): \(sent)")
            #expect(await Self.notices(server).count == 2, "one notice, one digest: nothing sent twice")
        }
    }
    @Test(
        "review_2_b deleting the account deletes its waiting digest rows and its notice window",
        arguments: TestDatabase.all)
    func test_20_2_deletionLeavesNoDigest(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.noticeDigestSeconds = Self.window }) { server in
            let alice = try await server.signUp()
            try await Self.setCode("Blue-Heron", server, bearer: alice.accessToken)
            try await Self.setCode("Red-Fox", server, bearer: alice.accessToken)
            #expect(try await Self.pendingRows(server) == 1)
            let deleted = try await AccountDeletionTests.deleteAccount(server, bearer: alice.accessToken)
            #expect(deleted.status == 200, "\(deleted.text)")
            #expect(try await Self.pendingRows(server) == 0, "no digest row names the deleted account")
            let windows = try await AccountDeletionTests.rows(
                server, "SELECT key FROM guess_budgets WHERE key LIKE 'notice%'")
            #expect(windows.isEmpty, "the notice window and budget keys are gone")
        }
    }

    @Test("review_2_b LATCH_NOTICE_DIGEST_SECONDS is read and checked (0–86400, default 300)")
    func test_20_2_configuration() throws {
        let base = ["LATCH_SECRET_KEY": Data(repeating: 1, count: 32).base64EncodedString()]
        #expect(try LatchConfig.fromEnvironment(base).noticeDigestSeconds == 300)
        let off = try LatchConfig.fromEnvironment(base.merging(["LATCH_NOTICE_DIGEST_SECONDS": "0"]) { $1 })
        #expect(off.noticeDigestSeconds == 0)
        for value in ["-1", "86401", "five minutes"] {
            #expect(throws: ConfigurationError.self, "LATCH_NOTICE_DIGEST_SECONDS=\(value)") {
                try LatchConfig.fromEnvironment(base.merging(["LATCH_NOTICE_DIGEST_SECONDS": value]) { $1 })
            }
        }
    }
}
