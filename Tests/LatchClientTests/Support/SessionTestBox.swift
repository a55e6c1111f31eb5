import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// A value shared between tasks of a test (NSLock: Synchronization's Mutex needs macOS 15).
// @unchecked Sendable: `value` is only touched under `lock`.
final class SessionTestBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}
