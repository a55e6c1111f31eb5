import Logging

/// `LATCH_LOG_FORMAT=text`: swift-log's `StreamLogHandler` lines on standard output, with the metadata kept
/// as it is set and formatted only when a line is written. `StreamLogHandler` formats its whole metadata again
/// on every change, and every request changes it three times (Hummingbird's `hb.request.id`, then latchd's
/// `request-id` in its place): 4 % of a refresh's CPU for lines that, at the production level, are not written
/// (issue 44 §4).
struct TextLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    private let label: String
    /// Where the lines go; nil: standard output.
    private let stream: (any TextOutputStream & Sendable)?

    init(
        label: String, level: Logger.Level,
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider,
        stream: (any TextOutputStream & Sendable)? = nil
    ) {
        self.label = label
        self.logLevel = level
        self.metadataProvider = metadataProvider
        self.stream = stream
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line =
            stream.map { StreamLogHandler(label: label, stream: $0, metadataProvider: metadataProvider) }
            ?? .standardOutput(label: label, metadataProvider: metadataProvider)
        line.logLevel = logLevel
        line.metadata = metadata
        line.log(event: event)
    }
}
