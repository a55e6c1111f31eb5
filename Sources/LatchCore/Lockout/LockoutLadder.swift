import Foundation

/// The brute-force ladder of C4: 5 consecutive failures lock for 5 minutes, 10 for 1 hour,
/// and every further 5 for another hour. Pure policy: it says how long, never when "now" is.
///
///     LockoutLadder.standard.lockDuration(afterConsecutiveFailures: 5)  // 300
///     LockoutLadder.standard.lockDuration(afterConsecutiveFailures: 7)  // nil
public struct LockoutLadder: Sendable, Equatable {
    /// Failures that cause the first, short lock.
    public let firstLockAt: Int
    /// How long the first lock lasts, in seconds.
    public let firstLockDuration: TimeInterval
    /// Failures that cause the first long lock.
    public let longLockAt: Int
    /// After `longLockAt`, every this many further failures lock again for `longLockDuration`.
    public let longLockEvery: Int
    /// How long a long lock lasts, in seconds.
    public let longLockDuration: TimeInterval

    public init(
        firstLockAt: Int = 5, firstLockDuration: TimeInterval = 300,
        longLockAt: Int = 10, longLockEvery: Int = 5, longLockDuration: TimeInterval = 3600
    ) {
        self.firstLockAt = firstLockAt
        self.firstLockDuration = firstLockDuration
        self.longLockAt = longLockAt
        self.longLockEvery = longLockEvery
        self.longLockDuration = longLockDuration
    }

    /// The ladder of C4 (password sign-in).
    public static let standard = LockoutLadder()

    /// The ladder of a verification method (D2: 5 consecutive fund-password failures lock it for an hour).
    public static let verificationMethod = LockoutLadder(firstLockDuration: 3600)

    @available(*, deprecated, renamed: "verificationMethod")
    public static var stepUpMethod: LockoutLadder { verificationMethod }

    /// How long to lock once the count of consecutive failures reaches `failures`; `nil` for no lock.
    public func lockDuration(afterConsecutiveFailures failures: Int) -> TimeInterval? {
        if failures == firstLockAt { return firstLockDuration }
        if failures >= longLockAt, (failures - longLockAt) % longLockEvery == 0 { return longLockDuration }
        return nil
    }

    /// The count of consecutive failures at which the next lock starts, after `failures`.
    ///
    ///     LockoutLadder.standard.nextLockAt(afterConsecutiveFailures: 7) // 10
    public func nextLockAt(afterConsecutiveFailures failures: Int) -> Int {
        if failures < firstLockAt { return firstLockAt }
        if failures < longLockAt { return longLockAt }
        return failures + longLockEvery - (failures - longLockAt) % longLockEvery
    }
}

/// The lockout state of one identifier, driven by events with the time passed in.
///
/// The server keeps the same state in a database row and changes it with one atomic statement;
/// this value is the reference its behaviour is tested against.
public struct LockoutState: Sendable, Equatable {
    /// What happens to a sign-in attempt.
    public enum Admission: Sendable, Equatable {
        /// Check the password.
        case allowed
        /// Refuse without checking the password and without counting the attempt.
        case refused(lockedUntil: Date)
    }

    /// Failures since the last success.
    public private(set) var consecutiveFailures: Int
    /// The end of the current or last lock.
    public private(set) var lockedUntil: Date?
    private let ladder: LockoutLadder

    public init(ladder: LockoutLadder = .standard, consecutiveFailures: Int = 0, lockedUntil: Date? = nil) {
        self.ladder = ladder
        self.consecutiveFailures = consecutiveFailures
        self.lockedUntil = lockedUntil
    }

    /// Whether an attempt at `now` may check the password.
    public func admission(at now: Date) -> Admission {
        if let lockedUntil, lockedUntil > now { return .refused(lockedUntil: lockedUntil) }
        return .allowed
    }

    /// Records a wrong password at `now`; returns the end of the lock this failure starts, if any.
    /// A failure while locked is not counted (the attempt should have been refused).
    @discardableResult
    public mutating func failed(at now: Date) -> Date? {
        guard admission(at: now) == .allowed else { return nil }
        consecutiveFailures += 1
        guard let duration = ladder.lockDuration(afterConsecutiveFailures: consecutiveFailures) else { return nil }
        let until = now.addingTimeInterval(duration)
        lockedUntil = until
        return until
    }

    /// Records a correct password: the count starts again.
    public mutating func succeeded() {
        consecutiveFailures = 0
        lockedUntil = nil
    }
}
