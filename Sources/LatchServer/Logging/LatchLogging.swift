import Foundation
import Logging

/// The process-wide log set-up of latchd (`LATCH_LOG_FORMAT`) at one level: `--log LEVEL`, else `LOG_LEVEL`,
/// else info (notice in production).
public enum LatchLogging {
    /// Bootstraps swift-log: lines as swift-log's stream handler writes them on standard output
    /// (`TextLogHandler`), or one JSON object per line (`JSONLogHandler`).
    public static func bootstrap(_ format: LogFormat, level: Logger.Level) {
        switch format {
        case .text:
            LoggingSystem.bootstrap { label in TextLogHandler(label: label, level: level) }
        case .json:
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label, level: level) }
        }
    }

    /// The level asked for: `requested` (`--log`), else `LOG_LEVEL` from `environment`, else info, or notice
    /// in production. An unknown `LOG_LEVEL` is a configuration error.
    public static func level(
        requested: Logger.Level?, environment: [String: String], mode: LatchConfig.Mode
    ) throws -> Logger.Level {
        if let requested { return requested }
        if let raw = environment["LOG_LEVEL"], !raw.isEmpty {
            guard let level = Logger.Level(rawValue: raw.lowercased()) else {
                throw ConfigurationError(
                    "LOG_LEVEL", "must be one of trace, debug, info, notice, warning, error, critical")
            }
            return level
        }
        return mode == .production ? .notice : .info
    }
}
