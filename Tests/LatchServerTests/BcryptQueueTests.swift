import Foundation
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 10 §3: bcrypt work is a bounded queue. The sign-ins beyond the bound answer 429 at once
/// (without running bcrypt or counting a failure), the others succeed, and `/health` stays fast.
///
/// Issue 22 §8: nothing here depends on how busy the machine is. The test holds the queue's places
/// itself (no race between sign-ins for them), and "at once" is proven by the refusals coming back
/// while those places are still held: a refusal that queued would never come back, and the suite's
/// time limit would fail the test.
@Suite("bcrypt behind a bounded queue (issue 10 §3)", .timeLimit(.minutes(10)))
struct BcryptQueueTests {
    @Test(
        "issue 10 §3: with every place of the bcrypt queue taken, sign-ins get 429 retry_after 1 at once, run no bcrypt, count no failure; /health answers",
        arguments: TestDatabase.all)
    func test_10_fullBcryptQueueAnswers429AtOnce(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.bcryptQueueLimit = 2 }) { server in
            try await server.signUp()
            let passwords = server.app.latch.passwords
            let checksBefore = passwords.checksPerformed
            let refusalsBefore = passwords.queueRefusals

            // Two long bcrypt jobs hold both places until the test lets them go.
            let gate = TestGate()
            let holders = (0..<2).map { _ in
                Task { try await passwords.withPlace { await gate.enterAndWait() } }
            }
            await gate.waitUntilEntered(2)

            let statuses = try await withThrowingTaskGroup(of: (UInt, Int?).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let response = try await server.signIn()
                        return (response.status, response.errorBody?.retryAfter)
                    }
                }
                return try await group.reduce(into: [(UInt, Int?)]()) { $0.append($1) }
            }
            let health = try await server.send(.GET, "/health")
            let inUse = passwords.placesInUse
            gate.open()
            for holder in holders { try await holder.value }

            #expect(statuses.allSatisfy { $0 == (429, 1) }, "\(statuses)")
            #expect(passwords.checksPerformed == checksBefore, "refused sign-ins ran no bcrypt")
            #expect(passwords.queueRefusals - refusalsBefore == 8)
            #expect(inUse == 2 && health.status == 200, "/health does not wait for bcrypt")
            // With the places free again the same sign-in succeeds, and no refusal counted as a wrong
            // password: the account is not closer to a lock.
            #expect(try await server.signIn().status == 200)
            let wrong = try await server.signIn(password: "Wrong-Horse-9")
            #expect(wrong.errorBody?.attemptsRemaining == 4, "\(wrong.text)")
        }
    }

    @Test(
        "issue 10 §3: concurrent sign-ins racing for a bound of 2 each succeed or get 429, and only the successes ran bcrypt",
        arguments: TestDatabase.all)
    func test_10_racingSignInsSucceedOrAreRefused(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.bcryptQueueLimit = 2 }) { server in
            try await server.signUp()
            let checksBefore = server.app.latch.passwordChecksPerformed

            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for _ in 0..<8 { group.addTask { try await server.signIn().status } }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }

            // How many get a place depends on timing; what each answer may be does not.
            let succeeded = statuses.filter { $0 == 200 }.count
            let refused = statuses.filter { $0 == 429 }.count
            #expect(succeeded + refused == statuses.count, "only 200 or 429: \(statuses)")
            #expect(succeeded >= 1, "the first to arrive always finds a place: \(statuses)")
            #expect(server.app.latch.passwordChecksPerformed - checksBefore == succeeded)
            let wrong = try await server.signIn(password: "Wrong-Horse-9")
            #expect(wrong.errorBody?.attemptsRemaining == 4, "\(wrong.text)")
        }
    }
}
