import ArgumentParser

/// `latchd serve --log LEVEL`: swift-log's levels, handed to Vapor's log set-up.
enum LogLevel: String, CaseIterable, ExpressibleByArgument, Sendable {
    case trace, debug, info, notice, warning, error, critical
}
