/// Whether `condition` becomes true, checked every `interval` for up to `limit`.
///
/// For what happens in the background (a reload, a NOTIFY, a worker's send): the test asserts that it
/// happens, not how fast. The limit only turns "never" into a failure instead of a hang, so it is far
/// longer than a busy machine needs (issue 22 §8); a passing test returns as soon as the condition holds.
/// It runs on the caller's actor (a main-actor test's model is read where it lives).
public func eventually(
    within limit: Duration = .seconds(120), every interval: Duration = .milliseconds(20),
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while true {
        if try await condition() { return true }
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: interval)
    }
}
