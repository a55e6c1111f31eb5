/// How latchd writes its log (`LATCH_LOG_FORMAT`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// Vapor's console lines, for people.
    case text
    /// One JSON object per line (`JSONLogHandler`), for log collectors.
    case json
}
