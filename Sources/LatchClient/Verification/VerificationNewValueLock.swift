import Foundation

/// A new value that may not be used yet (403 NEW_VALUE_LOCKED, issue 30): the action names a value (a
/// withdrawal address …) first seen recently, and the policy locks new values for a while. The
/// verification page shows it, counting down to `lockedUntil`, instead of the methods.
public struct VerificationNewValueLock: Sendable, Equatable {
    /// The parameter whose value is new, e.g. `address`.
    public var parameter: String
    /// When the value may be used.
    public var lockedUntil: Date

    public init(parameter: String, lockedUntil: Date) {
        self.parameter = parameter
        self.lockedUntil = lockedUntil
    }
}
