import Foundation

/// The source of "now" for every time-based rule, injected so tests move time without sleeping.
public struct LatchClock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) { self.read = read }

    /// The wall clock.
    public static let system = LatchClock { Date() }

    public var now: Date { read() }

    /// Now as whole seconds since 1970 (JWT `iat`/`exp` and stored times use this scale).
    public var epochSeconds: Double { now.timeIntervalSince1970 }
}
