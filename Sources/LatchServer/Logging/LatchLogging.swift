import Logging
import Vapor

/// The process-wide log set-up of latchd (`LATCH_LOG_FORMAT`), at the level Vapor detects
/// (`--log LEVEL` or `LOG_LEVEL`, else info).
public enum LatchLogging {
    public static func bootstrap(_ format: LogFormat, from environment: inout Environment) throws {
        switch format {
        case .text:
            try LoggingSystem.bootstrap(from: &environment)
        case .json:
            try LoggingSystem.bootstrap(from: &environment) { level in
                { label in JSONLogHandler(label: label, level: level) }
            }
        }
    }
}
