/// How latchd writes its log (`LATCH_LOG_FORMAT`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// One line per entry with its level and metadata (swift-log's `StreamLogHandler`), for people.
    case text
    /// One JSON object per line (`JSONLogHandler`), for log collectors.
    case json
}
