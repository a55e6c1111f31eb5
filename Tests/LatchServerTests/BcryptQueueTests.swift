import Foundation
import LatchServer
import Testing
import Vapor

/// Issue 10 §3: bcrypt work is a bounded queue. With a tiny bound and a slow cost, the sign-ins
/// beyond the bound answer 429 at once (without running bcrypt or counting a failure), the others
/// succeed, and `/health` stays fast.
@Suite("bcrypt behind a bounded queue (issue 10 §3)")
struct BcryptQueueTests {
    struct Outcome: Sendable {
        let status: UInt
        let retryAfter: Int?
        let seconds: Double
    }

    @Test(
        "issue 10 §3: concurrent sign-ins beyond the bcrypt bound get 429 at once, the others succeed, /health stays fast",
        arguments: TestDatabase.all)
    func test_10_fullBcryptQueueAnswers429AtOnce(database: TestDatabase) async throws {
        try await withServer(
            database,
            adjust: {
                $0.bcryptCost = 10; $0.bcryptQueueLimit = 2
            }
        ) { server in
            try await server.signUp()
            let checksBefore = server.app.latch.passwordChecksPerformed

            let healthTask = Task {
                try await Task.sleep(for: .milliseconds(20)) // while the admitted sign-ins run bcrypt
                let start = ContinuousClock.now
                let health = try await server.send(.GET, "/health")
                return (health.status, ContinuousClock.now - start)
            }
            let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let start = ContinuousClock.now
                        let response = try await server.signIn()
                        let elapsed = ContinuousClock.now - start
                        return Outcome(
                            status: response.status, retryAfter: response.errorBody?.retryAfter,
                            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                    }
                }
                var outcomes: [Outcome] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            let (healthStatus, healthTime) = try await healthTask.value

            let succeeded = outcomes.filter { $0.status == 200 }
            let refused = outcomes.filter { $0.status == 429 }
            #expect(succeeded.count + refused.count == 8, "\(outcomes.map(\.status))")
            #expect(succeeded.count >= 1 && refused.count >= 1, "\(outcomes.map(\.status))")
            #expect(refused.allSatisfy { $0.retryAfter == 1 })
            let slowestRefusal = refused.map(\.seconds).max() ?? 0
            let fastestSuccess = succeeded.map(\.seconds).min() ?? 0
            #expect(
                slowestRefusal < fastestSuccess,
                "refused at once (\(slowestRefusal) s) rather than queued (\(fastestSuccess) s)")
            #expect(
                server.app.latch.passwordChecksPerformed - checksBefore == succeeded.count,
                "refused sign-ins ran no bcrypt")
            let slowestSuccess = succeeded.map(\.seconds).max() ?? 0
            #expect(
                healthStatus == 200 && healthTime < .seconds(slowestSuccess),
                "/health took \(healthTime), bcrypt \(slowestSuccess) s")

            // No refusal counted as a failed password: the account is not closer to a lock.
            let wrong = try await server.signIn(password: "Wrong-Horse-9")
            #expect(wrong.errorBody?.attemptsRemaining == 4, "\(wrong.text)")
        }
    }
}
