// Shared by the account screen tests (issue 11 §4).
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

    /// Time as the test says.
    @MainActor
    final class ScreenTestClock {
        var now = Date(timeIntervalSince1970: 1_800_000_000)

        func advance(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }

        var read: @MainActor () -> Date { { self.now } }
    }
#endif
