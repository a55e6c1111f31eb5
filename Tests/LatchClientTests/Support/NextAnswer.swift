// Shared by the account screen tests (issue 11 §4).
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

    /// The next scripted answer; a call the test did not script is recorded as a failure (not a crash).
    @MainActor
    func nextAnswer<Value>(_ answers: inout [Result<Value, LatchClientError>], for call: String) throws -> Value {
        guard !answers.isEmpty else {
            Issue.record("unscripted call: \(call)")
            throw ScreenErrors.offline
        }
        return try answers.removeFirst().get()
    }
#endif
