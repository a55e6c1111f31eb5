import Testing

@testable import LatchClient

/// Issue 14 §5: the one helper every driver uses to drop late results.
@Suite("Late results are dropped (issue 14 §5)")
struct LatestWorkTests {
    @Test("14 a result of the running work is accepted once")
    func I14_currentResultIsAcceptedOnce() {
        var work = LatestWork()
        let ticket = work.start()

        #expect(work.isRunning)
        #expect(work.isCurrent(ticket))
        let r1 = work.finish(ticket)
        #expect(r1)
        let r2 = work.finish(ticket)
        #expect(!r2)
        #expect(!work.isCurrent(ticket))
        #expect(!work.isRunning)
    }

    @Test("14 a newer start makes the earlier ticket's result late")
    func I14_newerStartDropsEarlierResult() {
        var work = LatestWork()
        let first = work.start()
        let second = work.start()

        #expect(!work.isCurrent(first))
        let r3 = work.finish(first)
        #expect(!r3)
        let r4 = work.finish(second)
        #expect(r4)
    }

    @Test("14 abandoned work's result is late, and abandon says whether something was running")
    func I14_abandonDropsTheResult() {
        var work = LatestWork()
        let r5 = work.abandon()
        #expect(!r5)

        let ticket = work.start()
        let r6 = work.abandon()
        #expect(r6)
        #expect(!work.isCurrent(ticket))
        let r7 = work.finish(ticket)
        #expect(!r7)
        let r8 = work.abandon()
        #expect(!r8)

        // Work started after the abandon is unaffected by it.
        let next = work.start()
        let r9 = work.finish(next)
        #expect(r9)
    }
}
