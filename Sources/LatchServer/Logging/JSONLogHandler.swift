import Foundation
import Logging
import Synchronization

/// `LATCH_LOG_FORMAT=json`: each entry is one JSON object on one line, with `timestamp` (ISO 8601,
/// UTC, milliseconds), `level`, `label`, `message` and the metadata's fields beside them (the
/// request's `request-id` as `request_id`). JSON's escaping keeps every entry on its line whatever a client
/// put into a path or a header; a client's `X-Request-Id` is also cut to 64 bytes and %-escaped
/// like the text log (`LogSafeText`). A metadata field named like one of the four is written as
/// `metadata_NAME`, so it can never hide them.
///
///     LoggingSystem.bootstrap { JSONLogHandler(label: $0, level: .info) }
///     // {"timestamp":"2026-11-24T08:00:00.000Z","level":"info","label":"latchd","message":"GET /health","request_id":"4C1…"}
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let write: @Sendable (String) -> Void

    /// Writes to standard output.
    public init(label: String, level: Logger.Level, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(label: label, level: level, metadataProvider: metadataProvider, write: StandardOutputLines.write)
    }

    /// Hands each line (without its newline) to `write`.
    public init(
        label: String, level: Logger.Level, metadataProvider: Logger.MetadataProvider? = nil,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.label = label
        self.logLevel = level
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = self.metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let explicit = event.metadata { fields.merge(explicit) { $1 } }
        write(
            Self.line(
                timestamp: Date(), level: event.level, label: label, message: event.message.description,
                metadata: fields))
    }

    static let reservedKeys: Set<String> = ["timestamp", "level", "label", "message"]

    /// The JSON line of one entry.
    static func line(timestamp: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata)
        -> String
    {
        var line = "{\"timestamp\":"
        JSONText.appendString(timestamp.formatted(Self.timestampStyle), to: &line)
        line += ",\"level\":"
        JSONText.appendString(level.rawValue, to: &line)
        line += ",\"label\":"
        JSONText.appendString(label, to: &line)
        line += ",\"message\":"
        JSONText.appendString(message, to: &line)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            // The request's `request-id`, unless the entry names `request_id` itself (the same id).
            if key == "request-id", metadata["request_id"] != nil { continue }
            var name = key == "request-id" ? "request_id" : key
            var value = value
            if name == "request_id", case .string(let id) = value {
                value = .string(LogSafeText.escaped(id, limit: 64))
            }
            if reservedKeys.contains(name) { name = "metadata_" + name }
            line += ","
            JSONText.appendString(name, to: &line)
            line += ":"
            JSONText.append(value, to: &line)
        }
        return line + "}"
    }

    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
}

/// Whole lines to standard output, one `write` each, never interleaved.
enum StandardOutputLines {
    private static let lock = Mutex(())

    static let write: @Sendable (String) -> Void = { line in
        let data = Data((line + "\n").utf8)
        lock.withLock { _ in FileHandle.standardOutput.write(data) }
    }
}
