import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import Logging
import SQLKit
import Testing

@testable import LatchServer

/// Issue 20 §9: deletion leaves no trace that names the person. The account's events lose their
/// addresses, mail queued for the address is dropped, and Apple's token is revoked later when Apple
/// could not be asked at the time (kept sealed in a retry table).
@Suite("Deletion leaves no trace (issue 20 §9)")
struct DeletionTraceTests {
    @Test("review_9 the deleted account's security events keep no IP address", arguments: TestDatabase.all)
    func test_20_9_eventsLoseTheirAddresses(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            _ = try await server.signIn(password: "Wrong-Password-1")
            let before = try await AccountDeletionTests.rows(
                server, "SELECT ip FROM security_events WHERE user_id = \(bind: UUID(uuidString: alice.user.id)!)")
            #expect(try before.contains { try $0.decode(column: "ip", as: String?.self) == "127.0.0.1" })

            let deleted = try await AccountDeletionTests.deleteAccount(server, bearer: alice.accessToken)

            #expect(deleted.status == 200, "\(deleted.text)")
            let after = try await AccountDeletionTests.rows(
                server, "SELECT type, ip FROM security_events WHERE user_id = \(bind: UUID(uuidString: alice.user.id)!)"
            )
            #expect(after.count >= 3, "the events stay, pointing at the tombstone")
            for row in after {
                let type = try row.decode(column: "type", as: String.self)
                let ip = try row.decode(column: "ip", as: String?.self)
                #expect(ip == nil, "\(type)")
            }
        }
    }

    @Test(
        "review_9 mail and SMS still queued for the deleted address are dropped; others' stay",
        arguments: TestDatabase.all)
    func test_20_9_queuedMailIsDropped(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            // This development server sends through its outbox; the queue table is there all the same,
            // and nothing takes these rows from it.
            let store = DeliveryJobStore(
                secrets: server.app.latch.secrets, capacity: 100, kind: server.app.latch.databaseKind)
            let now = server.clock.now.timeIntervalSince1970
            for recipient in ["alice@example.com", "ALICE@example.com", "bob@example.com"] {
                try await store.enqueue(
                    .mail(
                        from: "latch@latch.test", recipients: [recipient], message: "Subject: hi\r\n\r\nhi",
                        clientName: "t"),
                    now: now, on: server.app.db)
            }

            let deleted = try await AccountDeletionTests.deleteAccount(server, bearer: alice.accessToken)

            #expect(deleted.status == 200, "\(deleted.text)")
            let left = try await AccountDeletionTests.rows(server, "SELECT recipient_key FROM delivery_jobs")
                .map { try $0.decode(column: "recipient_key", as: String?.self) }
            let bob = DeliveryJobStore.recipientKey(of: "bob@example.com", secrets: server.app.latch.secrets)
            #expect(left == [bob], "only bob's mail is still queued: \(left)")
            #expect(!left.contains { $0?.contains("alice") == true }, "keys are hashes, not addresses")
        }
    }

    @Test(
        "review_9 Apple unreachable at deletion: the sealed token waits in a retry table and is revoked once Apple answers",
        arguments: TestDatabase.all)
    func test_20_9_appleRevocationIsRetried(database: TestDatabase) async throws {
        let clock = TestClock()
        try await withProviders(database, clock: clock) { server, apple in
            let signedIn = try await AppleRevocationTests.appleSignIn(server, apple)
            let tokens = try signedIn.decode(TokenResponse.self)
            let issued = try #require(apple.appleRefreshTokens.first)
            apple.forceRevokeStatus(503)

            let deleted = try await AccountDeletionTests.deleteAccount(server, bearer: tokens.accessToken)
            let waiting = try await AccountDeletionTests.rows(
                server, "SELECT sealed_refresh_token, attempts FROM apple_revocation_retries")

            #expect(
                deleted.status == 200 && (try? deleted.decode(AccountDeleted.self))?.appleRevocation == .notPossible)
            #expect(waiting.count == 1)
            let sealed = try #require(try waiting.first?.decode(column: "sealed_refresh_token", as: String.self))
            #expect(!sealed.contains(issued.token), "kept sealed")

            let endpoint = try #require(server.app.identityServices.appleTokens)
            let secrets = server.app.latch.secrets
            let logger = Logger(label: "test")
            // The stand-in checks client secrets against the same clock: time moves for both.
            func retry(after seconds: Double) async throws -> Int {
                clock.advance(by: seconds)
                return try await AppleRevocationRetries.retryDue(
                    endpoint: endpoint, secrets: secrets, now: clock.now.timeIntervalSince1970, on: server.app.db,
                    logger: logger)
            }
            let early = try await retry(after: 10)
            let stillDown = try await retry(after: 51)
            apple.forceRevokeStatus(nil)
            let backUp = try await retry(after: 7 * 3600)

            #expect(early == 0 && stillDown == 0 && backUp == 1)
            #expect(apple.appleRevoked == [issued], "revoked once Apple answered")
            #expect(try await AccountDeletionTests.rows(server, "SELECT id FROM apple_revocation_retries").isEmpty)
        }
    }
}
