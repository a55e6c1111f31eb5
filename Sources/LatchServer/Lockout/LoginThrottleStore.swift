import Fluent
import Foundation
import LatchCore
import SQLKit

/// The C4 lockout ladder kept in the database, changed only by single atomic statements so the
/// count is exact under concurrency and across several latchd processes on one database.
///
/// An attempt is charged *before* the password is checked: the statement that counts it also sets
/// the lock when the count reaches a step of the ladder, and refuses to count while locked. So with
/// 32 concurrent wrong passwords at most 5 are ever checked. A correct password then clears the count.
struct LoginThrottleStore: Sendable {
    let ladder: LockoutLadder

    /// The outcome of charging one attempt.
    enum Charge: Equatable {
        /// Check the password; `lockedUntil` is set when this attempt's failure starts a lock.
        case admitted(failures: Int, lockedUntil: Date?)
        /// Locked: refuse without checking and without counting.
        case refused(lockedUntil: Date)
    }

    func charge(_ key: String, now: Double, on database: any Database) async throws -> Charge {
        let sql = database.sql
        try await sql.raw("""
            INSERT INTO login_throttles (key, failures, locked_until) VALUES (\(bind: key), 0, NULL)
            ON CONFLICT (key) DO NOTHING
            """).run()
        let short = ladder.firstLockDuration, long = ladder.longLockDuration
        let rows = try await sql.raw("""
            UPDATE login_throttles SET
              failures = failures + 1,
              locked_until = CASE
                WHEN failures + 1 = \(bind: ladder.firstLockAt) THEN \(bind: now + short)
                WHEN failures + 1 >= \(bind: ladder.longLockAt)
                  AND (failures + 1 - \(bind: ladder.longLockAt)) % \(bind: ladder.longLockEvery) = 0 THEN \(bind: now + long)
                ELSE locked_until END
            WHERE key = \(bind: key) AND (locked_until IS NULL OR locked_until <= \(bind: now))
            RETURNING failures, locked_until
            """).all()
        if let row = rows.first {
            let failures = try row.decode(column: "failures", as: Int.self)
            let lockedUntil = try row.decode(column: "locked_until", as: Double?.self)
            let startsLock = ladder.lockDuration(afterConsecutiveFailures: failures) != nil
            return .admitted(
                failures: failures, lockedUntil: startsLock ? lockedUntil.map(Date.init(timeIntervalSince1970:)) : nil)
        }
        let current = try await sql.raw("SELECT locked_until FROM login_throttles WHERE key = \(bind: key)").first()
        let until = try current?.decode(column: "locked_until", as: Double?.self) ?? now
        return .refused(lockedUntil: Date(timeIntervalSince1970: until))
    }

    /// A correct password: the count starts again.
    func reset(_ key: String, on database: any Database) async throws {
        try await database.sql.raw(
            "UPDATE login_throttles SET failures = 0, locked_until = NULL WHERE key = \(bind: key)"
        ).run()
    }

    /// Failures left before the next lock, for the AUTH_001 answer.
    func attemptsBeforeLock(failures: Int) -> Int {
        var next = failures + 1
        while ladder.lockDuration(afterConsecutiveFailures: next) == nil { next += 1 }
        return next - failures
    }
}
