import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Waits (polling every millisecond, up to about 60 s on a loaded machine) until `condition` holds.
func eventually(_ condition: @Sendable () async -> Bool) async throws {
    for _ in 0..<60_000 {
        if await condition() { return }
        try await Task.sleep(for: .milliseconds(1))
    }
    Issue.record("condition never held")
}
