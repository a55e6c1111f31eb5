import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes a slow server: holds callers until released, and tells a test when the first one arrived (no polling).
actor CredentialServerGate {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var watchers: [CheckedContinuation<Void, Never>] = []
    private var open = false
    private(set) var arrivals = 0

    func pass() async {
        arrivals += 1
        for watcher in watchers { watcher.resume() }
        watchers = []
        if open { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Returns once someone has arrived at the gate.
    func firstArrival() async {
        if arrivals > 0 { return }
        await withCheckedContinuation { watchers.append($0) }
    }

    func release() {
        open = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
