import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The C4 lockout ladder kept in the database, changed only by single atomic statements so the
/// count is exact under concurrency and across several latchd processes on one database.
///
/// Each row holds the confirmed consecutive `failures`, the lock, and `pending`: password checks
/// admitted but not finished. A check is admitted only while `failures + pending` is below the
/// next step of the ladder, so however many guesses arrive at once, no more passwords are checked
/// than the ladder allows before its next lock (at most 5 at first). Only a finished check changes
/// `failures`: a wrong password counts (and sets the lock on reaching a step), a right one resets.
/// Attempts beyond the allowance wait for the checks in flight to decide (lock or not).
/// `pending` older than `staleAfter` (a crashed process) is ignored.
struct LoginThrottleStore: Sendable {
    let ladder: LockoutLadder
    /// How long an attempt beyond the allowance waits for the checks in flight before it is `busy`
    /// (`LatchConfig.guessWaitLimit`).
    var waitLimit: Duration = .seconds(10)
    static let staleAfter: Double = 30
    static let waitStep: Duration = .milliseconds(20)

    /// Whether a password check may run.
    enum Admission: Equatable {
        case admitted
        /// Locked: refuse without checking and without counting.
        case refused(lockedUntil: Date)
        /// The checks in flight did not decide within the wait limit.
        case busy
    }

    /// The result of a finished check.
    enum Outcome: Equatable {
        case succeeded
        /// Wrong password; `lockedUntil` when this failure starts a lock.
        case failed(failures: Int, lockedUntil: Date?)
    }

    func admit(_ guardKey: GuardKey, clock: LatchClock, on database: any Database) async throws -> Admission {
        let key = guardKey.rawValue
        let sql = database.sql
        let makeRow: SQLQueryString = """
            INSERT INTO login_throttles (key, failures, locked_until, pending, pending_at)
            VALUES (\(bind: key), 0, NULL, 0, 0) ON CONFLICT (key) DO NOTHING
            """
        try await sql.raw(makeRow).run()
        let deadline = ContinuousClock.now.advanced(by: waitLimit)
        while true {
            let now = clock.epochSeconds
            let livePending: SQLQueryString =
                "(CASE WHEN pending_at < \(bind: now - Self.staleAfter) THEN 0 ELSE pending END)"
            let rows = try await sql.raw(
                """
                UPDATE login_throttles SET pending = \(livePending) + 1, pending_at = \(bind: now)
                WHERE key = \(bind: key) AND (locked_until IS NULL OR locked_until <= \(bind: now))
                  AND failures + \(livePending) < \(nextStep)
                RETURNING failures
                """
            ).all()
            if !rows.isEmpty { return .admitted }
            guard
                let row = try await sql.raw("SELECT locked_until FROM login_throttles WHERE key = \(bind: key)").first()
            else {
                // Deleted while this guess waited (the account's deletion clears its counters): make it
                // again rather than wait for a row that will never change until the wait limit.
                try await sql.raw(makeRow).run()
                continue
            }
            if let until = try row.decode(column: "locked_until", as: Double?.self), until > now {
                return .refused(lockedUntil: Date(timeIntervalSince1970: until))
            }
            // Full allowance in flight: wait for those checks to decide.
            guard ContinuousClock.now < deadline else { return .busy }
            try await Task.sleep(for: Self.waitStep)
        }
    }

    /// Records the result of an admitted check.
    @discardableResult
    func finish(_ guardKey: GuardKey, passwordMatched: Bool, now: Double, on database: any Database) async throws
        -> Outcome
    {
        let key = guardKey.rawValue
        let release: SQLQueryString = "pending = CASE WHEN pending > 0 THEN pending - 1 ELSE 0 END"
        if passwordMatched {
            try await database.sql.raw(
                """
                UPDATE login_throttles SET failures = 0, locked_until = NULL, \(release) WHERE key = \(bind: key)
                """
            ).run()
            return .succeeded
        }
        let short = ladder.firstLockDuration, long = ladder.longLockDuration
        let rows = try await database.sql.raw(
            """
            UPDATE login_throttles SET
              failures = failures + 1, \(release),
              locked_until = CASE
                WHEN failures + 1 = \(bind: ladder.firstLockAt) THEN \(bind: now + short)
                WHEN failures + 1 >= \(bind: ladder.longLockAt)
                  AND (failures + 1 - \(bind: ladder.longLockAt)) % \(bind: ladder.longLockEvery) = 0 THEN \(bind: now + long)
                ELSE locked_until END
            WHERE key = \(bind: key)
            RETURNING failures, locked_until
            """
        ).all()
        guard let row = rows.first else { return .failed(failures: 1, lockedUntil: nil) }
        let failures = try row.decode(column: "failures", as: Int.self)
        let lockedUntil = try row.decode(column: "locked_until", as: Double?.self)
        let startsLock = ladder.lockDuration(afterConsecutiveFailures: failures) != nil
        return .failed(
            failures: failures, lockedUntil: startsLock ? lockedUntil.map(Date.init(timeIntervalSince1970:)) : nil)
    }

    /// Ends an admitted check without counting it (the check could not run).
    func release(_ guardKey: GuardKey, on database: any Database) async throws {
        let key = guardKey.rawValue
        try await database.sql.raw(
            "UPDATE login_throttles SET pending = CASE WHEN pending > 0 THEN pending - 1 ELSE 0 END WHERE key = \(bind: key)"
        ).run()
    }

    /// Clears the count and any lock (after a password reset by email code).
    func reset(_ guardKey: GuardKey, on database: any Database) async throws {
        let key = guardKey.rawValue
        try await database.sql.raw(
            "UPDATE login_throttles SET failures = 0, locked_until = NULL WHERE key = \(bind: key)"
        ).run()
    }

    /// Clears the counts and locks of several keys in one statement (an operator's unlock).
    func reset(_ guardKeys: [GuardKey], on database: any Database) async throws {
        let keys = guardKeys.map(\.rawValue)
        guard !keys.isEmpty else { return }
        try await database.sql.update(LoginThrottle.schema)
            .set("failures", to: 0).set("locked_until", to: SQLLiteral.null)
            .where("key", .in, keys).run()
    }

    /// The ladder rows of `guardKeys` (keys without a row are left out), for the operator's view of locks.
    func rows(_ guardKeys: [GuardKey], on database: any Database) async throws -> [LoginThrottle] {
        try await LoginThrottle.query(on: database).filter(\.$id ~~ guardKeys.map(\.rawValue)).all()
    }

    /// Failures left before the next lock, for the AUTH_001 answer.
    func attemptsBeforeLock(failures: Int) -> Int { ladder.nextLockAt(afterConsecutiveFailures: failures) - failures }

    /// The ladder's next step after the row's `failures`, in SQL (the same rule as `LockoutLadder.nextLockAt`).
    private var nextStep: SQLQueryString {
        """
        (CASE WHEN failures < \(bind: ladder.firstLockAt) THEN \(bind: ladder.firstLockAt)
              WHEN failures < \(bind: ladder.longLockAt) THEN \(bind: ladder.longLockAt)
              ELSE failures + \(bind: ladder.longLockEvery) - ((failures - \(bind: ladder.longLockAt)) % \(bind: ladder.longLockEvery)) END)
        """
    }
}
