import Foundation
import LatchServer
import Synchronization

/// A clock the test moves by hand: it stands still between steps, and only `advance(by:)` moves it.
/// The one test clock of every test target: a server takes it as `latchClock`, a LatchClient
/// (`clock:`) or a screen model (`now:`) as `read`, and the test reads `now`.
public final class TestClock: Sendable {
    private let current: Mutex<Date>

    /// A clock standing at `start` (by default a fixed instant, so no test depends on the day it runs).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }

    /// The clock's time.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock on by `seconds`.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    /// The clock as a function, for what takes `() -> Date`: LatchClient's `clock:`, a screen model's `now:`.
    public var read: @Sendable () -> Date { { [self] in self.now } }

    /// The clock as LatchServer takes it (`InProcessLatchd.start(config, clock:)`).
    public var latchClock: LatchClock { LatchClock { [self] in self.now } }
}
