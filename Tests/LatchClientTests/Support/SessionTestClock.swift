import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// A clock the test moves by hand.
final class SessionTestClock: Sendable {
    private let current: SessionTestBox<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = SessionTestBox(start)
    }

    func now() -> Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
