import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 20 §6: the right admin key is never refused, failed authentications and searches are on the
/// record, each audit row commits with its action, and a deleted account is gone for operators too.
@Suite("Admin hardening (issue 20 §6)")
struct AdminHardeningTests {
    static let adminKey = AdminTests.adminKey

    /// Every entry of the audit log, newest first (read with the right key: one more `list_audit` entry).
    static func auditEntries(_ server: TestServer) async throws -> [AdminAuditRecord] {
        let page = try await server.send(.GET, "/v1/admin/audit?limit=100", bearer: adminKey)
        try #require(page.status == 200, "\(page.text)")
        return try page.decode(AdminAuditPage.self).entries
    }

    @Test(
        "review_6 wrong keys that empty every bucket never refuse the right key: it is compared first and never charged",
        arguments: TestDatabase.all)
    func test_20_6_rightKeyIsNeverRateLimited(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(
            database,
            adjust: {
                // A tiny global bucket that never refills (the test clock stands still): the incident.
                $0.rateLimits.adminAuth = RateLimitRule(
                    perClient: TokenRate(perSecond: 0, burst: 1000), global: TokenRate(perSecond: 0, burst: 3))
            }
        ) { server in
            var wrong: [UInt] = []
            for attempt in 0..<8 {
                wrong.append(try await server.send(.GET, "/v1/admin/users", bearer: "guess-\(attempt)").status)
            }
            var right: [UInt] = []
            for _ in 0..<20 {
                right.append(try await server.send(.GET, "/v1/admin/users", bearer: Self.adminKey).status)
            }
            let stillLimited = try await server.send(.GET, "/v1/admin/users", bearer: "guess-again")

            #expect(wrong == [401, 401, 401, 429, 429, 429, 429, 429], "wrong keys are priced")
            #expect(right == Array(repeating: 200, count: 20), "the right key never meets a bucket")
            #expect(stillLimited.status == 429, "and its calls gave wrong keys nothing back")
        }
    }

    @Test(
        "review_6 failed admin authentications are audited with the presented key's fingerprint (never the key), a limited number of rows",
        arguments: TestDatabase.all)
    func test_20_6_failedAuthenticationsAreAudited(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(database) { server in
            let presented = "admin-wrong-0123456789abcdef0123456789"
            let first = try await server.send(.POST, "/v1/admin/users/\(UUID())/disable", bearer: presented)
            let missing = try await server.send(.GET, "/v1/admin/users")
            // A flood from one client: 30 more failures.
            for attempt in 0..<30 {
                _ = try await server.send(.GET, "/v1/admin/audit", bearer: "flood-\(attempt)")
            }

            let entries = try await Self.auditEntries(server)
            let failures = entries.filter { $0.action == "authenticate" }
            #expect(first.status == 401 && missing.status == 401)
            let fingerprint = String(SHA256Hex.of(presented).prefix(8))
            let oldestTwo = failures.suffix(2).map { "\($0.actor) \($0.result)" }
            #expect(oldestTwo == ["key:none AUTH_004", "key:\(fingerprint) AUTH_004"], "\(failures)")
            #expect(failures.allSatisfy { $0.ip == "127.0.0.1" && $0.targetUserId == nil })
            #expect(
                failures.count == Int(AdminAuthFailureAudit.perClient.burst),
                "one client's flood writes at most its burst of rows (the clock stands still): \(failures.count)")
            #expect(!entries.contains { "\($0)".contains(presented) || "\($0)".contains("flood-") }, "never the key")
        }
    }

    @Test("review_6 find_users keeps its search text in the audit log", arguments: TestDatabase.all)
    func test_20_6_searchTextIsAudited(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(database) { server in
            try await server.signUp("bob@example.com")
            let found = try await server.send(.GET, "/v1/admin/users?q=%20Bob@Example", bearer: Self.adminKey)
            let all = try await server.send(.GET, "/v1/admin/users", bearer: Self.adminKey)

            let searches = try await Self.auditEntries(server).filter { $0.action == "find_users" }
            #expect(found.status == 200 && all.status == 200)
            #expect(searches.map(\.detail) == ["q=", "q=bob@example"], "\(searches)")
        }
    }

    @Test(
        "review_6 an action whose audit row cannot be written does not happen (disable and delete roll back)",
        arguments: TestDatabase.all)
    func test_20_6_auditRowCommitsWithItsAction(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(database) { server in
            let tokens = try await server.signUp()
            let userID = try #require(UUID(uuidString: tokens.user.id))
            // The audit log cannot take a row: every action must fail whole.
            try await server.app.db.sql.raw("DROP TABLE admin_audit_log").run()

            let disable = try await server.send(.POST, "/v1/admin/users/\(userID)/disable", bearer: Self.adminKey)
            let delete = try await server.send(.DELETE, "/v1/admin/users/\(userID)", bearer: Self.adminKey)

            #expect(disable.status == 500 && delete.status == 500, "\(disable.text) \(delete.text)")
            let user = try #require(try await User.find(userID, on: server.app.db))
            #expect(user.disabledAt == nil && user.deletedAt == nil && user.email == "alice@example.com")
            // The sessions live on in the database (this instance's cache may have ended them early: fail-safe).
            let revoked = try await Session.query(on: server.app.db).filter(\.$userID == userID)
                .filter(\.$revokedAt != nil).count()
            #expect(revoked == 0)
        }
    }

    @Test(
        "review_6 every admin action on a deleted account answers 404 (audited with its id); find_users no longer lists it",
        arguments: TestDatabase.all)
    func test_20_6_deletedAccountIsNotFound(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(database) { server in
            let tokens = try await server.signUp()
            let id = tokens.user.id
            let deleted = try await server.send(.DELETE, "/v1/admin/users/\(id)", bearer: Self.adminKey)
            try #require(deleted.status == 204, "\(deleted.text)")

            let answers = [
                try await server.send(.GET, "/v1/admin/users/\(id)", bearer: Self.adminKey),
                try await server.send(.POST, "/v1/admin/users/\(id)/unlock", bearer: Self.adminKey),
                try await server.send(.POST, "/v1/admin/users/\(id)/disable", bearer: Self.adminKey),
                try await server.send(.POST, "/v1/admin/users/\(id)/enable", bearer: Self.adminKey),
                try await server.send(.POST, "/v1/admin/users/\(id)/sign-out", bearer: Self.adminKey),
                try await server.send(.DELETE, "/v1/admin/users/\(id)/totp", bearer: Self.adminKey),
                try await server.send(.DELETE, "/v1/admin/users/\(id)/fund-password", bearer: Self.adminKey),
                try await server.send(.DELETE, "/v1/admin/users/\(id)", bearer: Self.adminKey)
            ]
            let listed = try await server.send(.GET, "/v1/admin/users", bearer: Self.adminKey)

            for answer in answers {
                #expect(answer.status == 404 && answer.errorCode == "NOT_FOUND", "\(answer.text)")
            }
            #expect(try listed.decode(AdminUserPage.self).users.isEmpty, "\(listed.text)")
            let onTombstone = try await Self.auditEntries(server).filter {
                $0.targetUserId == id && $0.result == "NOT_FOUND"
            }
            #expect(onTombstone.count == answers.count)
            let events = try await SecurityEvent.query(on: server.app.db).all().map(\.type)
            #expect(
                !events.contains { ["account_disabled", "account_enabled", "account_unlocked"].contains($0) },
                "nothing was done to the tombstone: \(events)")
        }
    }
}
