import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 20 §5: strangers cannot write the victim's log. Failures they can cause are one row per
/// account, kind and hour with a count, and the log is paged with a cursor instead of "newest N".
@Suite("Security events aggregated and paged (issue 20 §5)")
struct SecurityEventPagingTests {
    @Test(
        "review_5 a stranger's 40 failed passkey assertions naming the victim's credential are one counted row; passkey_added stays on the first page",
        arguments: TestDatabase.all)
    func test_20_5_strangerCannotFloodTheLog(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let victim = try await server.signUp()
            var authenticator = SoftwareAuthenticator()
            try await server.registerPasskey(&authenticator, bearer: victim.accessToken)
            // The stranger: the victim's credential id (given by the options to anyone who knows the
            // email), signed by a key of his own.
            for _ in 0..<40 {
                let options = try await server.passkeySignInOptions(email: "alice@example.com")
                var forger = SoftwareAuthenticator(credentialID: authenticator.credentialID, signCount: 100)
                let forged = try forger.assert(
                    challenge: options.options.challenge, rpID: Passkeys.rpID, origin: Passkeys.origin)
                let refused = try await server.passkeyGrant(challengeID: options.challengeId, credential: forged)
                try #require(refused.status == 401, "\(refused.text)")
            }

            let page = try await server.send(.GET, "/v1/security-events?limit=3", bearer: victim.accessToken)
            let rows = try await SecurityEvent.query(on: server.app.db).filter(\.$type == "sign_in_failed").all()

            #expect(page.status == 200, "\(page.text)")
            let failures = page.securityEvents.filter { $0.type == "sign_in_failed" }
            #expect(failures.count == 1 && failures.first?.count == 40, "\(page.text)")
            #expect(page.securityEvents.contains { $0.type == "passkey_added" }, "\(page.text)")
            #expect(rows.count == 1 && rows.first?.count == 40)
        }
    }

    @Test(
        "review_5 failures are counted exactly under concurrency, one row per account, kind and hour; a new hour starts a new row",
        arguments: TestDatabase.all)
    func test_20_5_aggregationIsExactAndWindowed(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let userID = try #require(UUID(uuidString: alice.user.id))
            let app = server.app
            let now = server.clock.now.timeIntervalSince1970
            let windowStart = (now / 3600).rounded(.down) * 3600
            let signInsBefore = try await SecurityEvent.query(on: app.db).filter(\.$type == "signed_in")
                .filter(\.$userID == userID).count()

            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<32 {
                    group.addTask {
                        try await app.latch.events.record(
                            .codeFailed, user: userID, ip: "192.0.2.\(index)", now: windowStart + Double(index),
                            on: app.db)
                    }
                }
                try await group.waitForAll()
            }
            try await app.latch.events.record(
                .codeFailed, user: userID, ip: "192.0.2.99", now: windowStart + 3600, on: app.db)
            try await app.latch.events.record(.codeFailed, user: nil, ip: "192.0.2.1", now: now, on: app.db)
            try await app.latch.events.record(.codeFailed, user: nil, ip: "192.0.2.2", now: now, on: app.db)
            try await app.latch.events.record(.signedIn, user: userID, ip: "192.0.2.3", now: now, on: app.db)
            try await app.latch.events.record(.signedIn, user: userID, ip: "192.0.2.3", now: now, on: app.db)

            let failures = try await SecurityEvent.query(on: app.db).filter(\.$type == "code_failed")
                .filter(\.$userID == userID).sort(\.$createdAt).all()
            let unknown = try await SecurityEvent.query(on: app.db).filter(\.$type == "code_failed")
                .filter(\.$userID == nil).all()
            let signIns = try await SecurityEvent.query(on: app.db).filter(\.$type == "signed_in")
                .filter(\.$userID == userID).count()

            #expect(failures.map(\.count) == [32, 1], "one row per hour, exact: \(failures.map(\.count))")
            #expect(unknown.count == 1 && unknown.first?.count == 2, "unknown accounts are counted together")
            #expect(signIns == signInsBefore + 2, "other kinds are never aggregated")
        }
    }

    @Test(
        "review_5 GET /v1/security-events pages with a cursor: every event once, newest first, next_cursor null at the end; bad input 400, an unknown cursor 422",
        arguments: TestDatabase.all)
    func test_20_5_eventsArePaged(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let userID = try #require(UUID(uuidString: alice.user.id))
            // 12 events at 7 distinct times (several share a time: the id breaks the tie).
            for index in 0..<11 {
                try await server.app.latch.events.record(
                    .profileUpdated, user: userID, ip: nil, now: 1_000 + Double(index / 2), on: server.app.db)
            }
            let all = try await SecurityEvent.query(on: server.app.db).filter(\.$userID == userID).count()

            var seen: [String] = []
            var times: [Date] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await server.send(
                    .GET, "/v1/security-events?limit=5" + (cursor.map { "&cursor=\($0)" } ?? ""),
                    bearer: alice.accessToken)
                try #require(page.status == 200, "\(page.text)")
                seen += page.securityEvents.map(\.id)
                times += page.securityEvents.map(\.createdAt)
                #expect(page.json.keys.contains("next_cursor"))
                cursor = try page.decode(SecurityEventPage.self).nextCursor
                pages += 1
            } while cursor != nil && pages < 10

            #expect(seen.count == all && Set(seen).count == all, "every event exactly once: \(seen.count) of \(all)")
            #expect(pages == (all + 4) / 5)
            #expect(times == times.sorted(by: >), "newest first")
            for bad in ["limit=0", "limit=101", "limit=x"] {
                let answer = try await server.send(.GET, "/v1/security-events?\(bad)", bearer: alice.accessToken)
                #expect(answer.status == 400 && answer.errorCode == "VALIDATION_FAILED", "\(bad): \(answer.text)")
            }
            // A cursor this server did not give is a server-side fact: 422, like an unknown challenge id.
            for bad in ["cursor=nope", "cursor=ZTp4fHk"] {
                let answer = try await server.send(.GET, "/v1/security-events?\(bad)", bearer: alice.accessToken)
                #expect(
                    answer.status == 422 && answer.errorCode == "VALIDATION_FAILED"
                        && answer.errorBody?.field == "cursor",
                    "\(bad): \(answer.text)")
            }
        }
    }

    @Test(
        "review_5 the admin view pages a user's events the same way (audited), and a deleted account's 404",
        arguments: TestDatabase.all)
    func test_20_5_adminViewIsPaged(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(database) { server in
            let alice = try await server.signUp()
            let userID = try #require(UUID(uuidString: alice.user.id))
            for index in 0..<7 {
                try await server.app.latch.events.record(
                    .profileUpdated, user: userID, ip: nil, now: 2_000 + Double(index), on: server.app.db)
            }
            let path = "/v1/admin/users/\(alice.user.id)/security-events"

            let first = try await server.send(.GET, path + "?limit=4", bearer: AdminTests.adminKey)
            let cursor = try #require(try first.decode(SecurityEventPage.self).nextCursor, "\(first.text)")
            let second = try await server.send(.GET, path + "?limit=4&cursor=\(cursor)", bearer: AdminTests.adminKey)
            let own = try await server.send(.GET, "/v1/security-events?limit=100", bearer: alice.accessToken)

            #expect(first.securityEvents.count == 4)
            let adminIDs = (first.securityEvents + second.securityEvents).map(\.id)
            #expect(adminIDs == Array(own.securityEvents.map(\.id).prefix(adminIDs.count)))
            #expect(second.json["next_cursor"] is NSNull || second.securityEvents.count == 4)
            let audit = try await server.send(.GET, "/v1/admin/audit", bearer: AdminTests.adminKey)
            let actions = try audit.decode(AdminAuditPage.self).entries.map(\.action)
            #expect(actions.filter { $0 == "list_security_events" }.count == 2)
            #expect(
                try await server.send(.DELETE, "/v1/admin/users/\(alice.user.id)", bearer: AdminTests.adminKey).status
                    == 204)
            #expect(try await server.send(.GET, path, bearer: AdminTests.adminKey).status == 404)
        }
    }
}
