import Logging
import Synchronization

/// A log handler that keeps every message and its metadata as text.
final class LogCapture: LogHandler, @unchecked Sendable {
    // @unchecked: `lines` is guarded by the Mutex; metadata and logLevel are only set during set-up.
    private let lines = Mutex<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let line = "\(event.level) \(event.message) \(event.metadata ?? [:])"
        lines.withLock { $0.append(line) }
    }

    var text: String { lines.withLock { $0.joined(separator: "\n") } }
}
