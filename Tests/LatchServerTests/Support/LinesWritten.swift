import Synchronization

/// Log lines kept by a test.
final class LinesWritten: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var append: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
}
