import Foundation
import LatchCore
import Testing

/// C4: 5 consecutive failures lock the account for 5 minutes; 10 lock it for 1 hour
/// (and every further 5 for another hour). Time is passed in; nothing sleeps.
@Suite("C4 lockout ladder")
struct LockoutLadderTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    // MARK: - The table

    @Test func C4_lockDurationTableForOneToTwentyFiveFailures() {
        // Set-up
        let ladder = LockoutLadder.standard
        var expected: [Int: TimeInterval] = [:]
        expected[5] = 300
        for failures in [10, 15, 20, 25] { expected[failures] = 3600 }

        // Act
        let table = (1...25).map { ($0, ladder.lockDuration(afterConsecutiveFailures: $0)) }

        // Check
        for (failures, duration) in table {
            #expect(duration == expected[failures], "after \(failures) failures")
        }
    }

    @Test func C4_noLockForZeroFailures() {
        let duration = LockoutLadder.standard.lockDuration(afterConsecutiveFailures: 0)

        #expect(duration == nil)
    }

    // MARK: - The state, step by step

    @Test func C4_firstFourFailuresDoNotLock() {
        var state = LockoutState()

        let locks = (1...4).map { state.failed(at: start.addingTimeInterval(Double($0))) }

        #expect(locks == [nil, nil, nil, nil])
        #expect(state.consecutiveFailures == 4)
        #expect(state.lockedUntil == nil)
        #expect(state.admission(at: start.addingTimeInterval(5)) == .allowed)
    }

    @Test func C4_fifthFailureLocksForFiveMinutes() {
        var state = LockoutState(consecutiveFailures: 4)

        let until = state.failed(at: start)

        #expect(until == start.addingTimeInterval(300))
        #expect(state.consecutiveFailures == 5)
        #expect(state.lockedUntil == start.addingTimeInterval(300))
    }

    @Test func C4_attemptsDuringLockAreRefusedWithoutCounting() {
        // Set-up: locked by the fifth failure.
        var state = LockoutState(consecutiveFailures: 4)
        let lockEnd = state.failed(at: start)!

        // Act: one second before the lock ends, an attempt arrives and (wrongly) records a failure.
        let during = start.addingTimeInterval(299)
        let admission = state.admission(at: during)
        let result = state.failed(at: during)

        // Check
        #expect(admission == .refused(lockedUntil: lockEnd))
        #expect(result == nil)
        #expect(state.consecutiveFailures == 5)
        #expect(state.lockedUntil == lockEnd)
    }

    @Test func C4_attemptAllowedOnceTheLockHasEnded() {
        var state = LockoutState(consecutiveFailures: 4)
        let lockEnd = state.failed(at: start)!

        let admission = state.admission(at: lockEnd)

        #expect(admission == .allowed)
    }

    @Test func C4_failuresSixToNineAfterTheShortLockDoNotLock() {
        // Set-up: five failures, then wait out the five-minute lock.
        var state = LockoutState()
        for second in 0..<5 { state.failed(at: start.addingTimeInterval(Double(second))) }
        let afterLock = start.addingTimeInterval(4 + 300)

        // Act
        let locks = (0..<4).map { state.failed(at: afterLock.addingTimeInterval(Double($0))) }

        // Check
        #expect(locks == [nil, nil, nil, nil])
        #expect(state.consecutiveFailures == 9)
        #expect(state.admission(at: afterLock.addingTimeInterval(4)) == .allowed)
    }

    @Test func C4_tenthFailureLocksForOneHour() {
        var state = LockoutState(consecutiveFailures: 9, lockedUntil: start.addingTimeInterval(-60))

        let until = state.failed(at: start)

        #expect(until == start.addingTimeInterval(3600))
        #expect(state.consecutiveFailures == 10)
        #expect(
            state.admission(at: start.addingTimeInterval(3599)) == .refused(lockedUntil: start.addingTimeInterval(3600))
        )
        #expect(state.admission(at: start.addingTimeInterval(3600)) == .allowed)
    }

    @Test func C4_fifteenthAndTwentiethFailuresLockForOneHour() {
        var state = LockoutState(consecutiveFailures: 14)

        let fifteenth = state.failed(at: start)
        let afterFirstLock = start.addingTimeInterval(3600)
        let between = (0..<4).map { state.failed(at: afterFirstLock.addingTimeInterval(Double($0))) }
        let twentieth = state.failed(at: afterFirstLock.addingTimeInterval(4))

        #expect(fifteenth == start.addingTimeInterval(3600))
        #expect(between == [nil, nil, nil, nil])
        #expect(twentieth == afterFirstLock.addingTimeInterval(4 + 3600))
        #expect(state.consecutiveFailures == 20)
    }

    @Test func C4_fullNarrativeFromFirstFailureToTwentieth() {
        var state = LockoutState()
        var now = start

        // Failures 1–4: no lock.
        for _ in 1...4 {
            #expect(state.admission(at: now) == .allowed)
            #expect(state.failed(at: now) == nil)
            now.addTimeInterval(1)
        }
        // Failure 5: locked for 300 s.
        let shortLockEnd = now.addingTimeInterval(300)
        #expect(state.failed(at: now) == shortLockEnd)
        // Attempts during the lock are refused and not counted.
        now.addTimeInterval(150)
        #expect(state.admission(at: now) == .refused(lockedUntil: shortLockEnd))
        #expect(state.failed(at: now) == nil)
        #expect(state.consecutiveFailures == 5)
        // The lock expires; failures 6–9: no lock.
        now.addTimeInterval(150)
        for _ in 6...9 {
            #expect(state.admission(at: now) == .allowed)
            #expect(state.failed(at: now) == nil)
            now.addTimeInterval(1)
        }
        // Failure 10: locked for 3600 s.
        #expect(state.failed(at: now) == now.addingTimeInterval(3600))
        #expect(state.failed(at: now.addingTimeInterval(3599)) == nil)
        now.addTimeInterval(3600)
        // Failures 11–14: no lock; failure 15: 3600 s.
        for _ in 11...14 {
            #expect(state.failed(at: now) == nil)
            now.addTimeInterval(1)
        }
        #expect(state.failed(at: now) == now.addingTimeInterval(3600))
        now.addTimeInterval(3600)
        // Failures 16–19: no lock; failure 20: 3600 s.
        for _ in 16...19 {
            #expect(state.failed(at: now) == nil)
            now.addTimeInterval(1)
        }
        #expect(state.failed(at: now) == now.addingTimeInterval(3600))
        #expect(state.consecutiveFailures == 20)
    }

    @Test func C4_successResetsCountAndLock() {
        // Set-up: six failures, the last lock already over.
        var state = LockoutState()
        for second in 0..<5 { state.failed(at: start.addingTimeInterval(Double(second))) }
        let later = start.addingTimeInterval(400)
        state.failed(at: later)

        // Act
        state.succeeded()

        // Check
        #expect(state.consecutiveFailures == 0)
        #expect(state.lockedUntil == nil)
        #expect(state.admission(at: later) == .allowed)
        // The ladder starts again: four more failures do not lock, the fifth does for 300 s.
        for second in 1...4 { #expect(state.failed(at: later.addingTimeInterval(Double(second))) == nil) }
        #expect(state.failed(at: later.addingTimeInterval(5)) == later.addingTimeInterval(305))
    }

    @Test func C4_nextLockStepFollowsTheLadder() {
        let ladder = LockoutLadder.standard

        let steps = (0...21).map { ladder.nextLockAt(afterConsecutiveFailures: $0) }

        #expect(steps == [5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 15, 15, 15, 15, 15, 20, 20, 20, 20, 20, 25, 25])
        for failures in 0...40 {
            let next = ladder.nextLockAt(afterConsecutiveFailures: failures)
            #expect(ladder.lockDuration(afterConsecutiveFailures: next) != nil)
            #expect(((failures + 1)..<next).allSatisfy { ladder.lockDuration(afterConsecutiveFailures: $0) == nil })
        }
    }
}
