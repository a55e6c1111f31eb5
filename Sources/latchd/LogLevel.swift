import ArgumentParser

/// `latchd serve --log LEVEL`: swift-log's levels.
enum LogLevel: String, CaseIterable, ExpressibleByArgument, Sendable {
    case trace, debug, info, notice, warning, error, critical
}
