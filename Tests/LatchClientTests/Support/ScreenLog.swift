// The screens a fake verification environment was shown, read in order by the test.
import LatchClient

/// Every screen presented, and how far the test has read: `take` returns the first screen of a kind
/// after the last one taken, so a test waits for the page it means, not an older one.
struct ScreenLog: Sendable {
    private(set) var screens: [VerificationScreen] = []
    private var cursor = 0

    mutating func append(_ screen: VerificationScreen) {
        screens.append(screen)
    }

    /// The first screen of `kind` matching `predicate` after the last one taken, if it was presented.
    mutating func take(
        _ kind: VerificationScreen.Kind, where predicate: (VerificationScreen) -> Bool
    ) -> VerificationScreen? {
        guard
            let index = screens.indices.dropFirst(cursor).first(where: {
                screens[$0].kind == kind && predicate(screens[$0])
            })
        else { return nil }
        cursor = index + 1
        return screens[index]
    }
}

/// A fake verification environment that keeps its screens in a `ScreenLog`: the test waits on `next`.
protocol ScreenLogging: Actor {
    var log: ScreenLog { get set }
}

extension ScreenLogging {
    /// The next screen of `kind` (matching `predicate`) presented after the last one returned.
    func next(
        _ kind: VerificationScreen.Kind, where predicate: @Sendable (VerificationScreen) -> Bool = { _ in true }
    ) async throws -> VerificationScreen {
        while true {
            if let screen = log.take(kind, where: predicate) { return screen }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
