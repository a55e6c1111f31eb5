import FluentKit
import Foundation
import LatchCore
import SQLKit

/// Failure budgets kept in the database (issue 10): each target — an address, a phone number, an
/// account's fund password or TOTP — may cost at most `GuessBudget.limit` wrong guesses in a window,
/// and nothing but the window's end gives them back: not a resend, a new challenge, a new code or a
/// right answer. The same store caps how many codes are sent to a target.
///
/// Every change is one atomic statement, so the count is exact under concurrency and across latchd
/// processes sharing the database: a guess is charged *before* it is checked (a right one is then
/// refunded), so however many arrive at once, no more than `limit` wrong ones are ever checked.
struct GuessBudgetStore: Sendable {
    /// What charging a guess found.
    enum Charge: Equatable {
        /// Go ahead and check; `remaining` charges are left in the window after this one.
        case charged(remaining: Int)
        /// The budget is spent: refused, uncharged, until `until`.
        case spent(until: Date)
    }

    /// Charges one guess (or send) to `key`, unless the window's budget is spent.
    func charge(_ guardKey: GuardKey, _ budget: GuessBudget, now: Double, on database: any Database) async throws
        -> Charge
    {
        let key = guardKey.rawValue
        let expired = now - budget.window
        let rows = try await database.sql.raw(
            """
            INSERT INTO guess_budgets (key, window_start, charged, locked_until) VALUES (\(bind: key), \(bind: now), 1, NULL)
            ON CONFLICT (key) DO UPDATE SET
              charged = CASE WHEN guess_budgets.window_start <= \(bind: expired) THEN 1 ELSE guess_budgets.charged + 1 END,
              locked_until = CASE WHEN guess_budgets.window_start <= \(bind: expired) THEN NULL ELSE guess_budgets.locked_until END,
              window_start = CASE WHEN guess_budgets.window_start <= \(bind: expired) THEN excluded.window_start
                                  ELSE guess_budgets.window_start END
            WHERE guess_budgets.window_start <= \(bind: expired)
               OR (guess_budgets.charged < \(bind: budget.limit) AND guess_budgets.locked_until IS NULL)
            RETURNING charged
            """
        ).all()
        if let row = rows.first {
            return .charged(remaining: budget.limit - (try row.decode(column: "charged", as: Int.self)))
        }
        let row = try await database.sql.raw(
            "SELECT window_start, locked_until FROM guess_budgets WHERE key = \(bind: key)"
        ).first()
        let windowStart = try row?.decode(column: "window_start", as: Double.self) ?? now
        let lockedUntil = try row?.decode(column: "locked_until", as: Double?.self)
        return .spent(until: Date(timeIntervalSince1970: lockedUntil ?? windowStart + budget.window))
    }

    /// When `key`'s budget is spent now, until when (nil: a charge would go through). Charges nothing: for
    /// checking a budget before something that cannot be given back (a code) is used.
    func spentUntil(_ guardKey: GuardKey, _ budget: GuessBudget, now: Double, on database: any Database) async throws
        -> Double?
    {
        let key = guardKey.rawValue
        guard
            let row = try await database.sql.raw(
                "SELECT window_start, charged, locked_until FROM guess_budgets WHERE key = \(bind: key)"
            ).first()
        else { return nil }
        let windowStart = try row.decode(column: "window_start", as: Double.self)
        guard windowStart > now - budget.window else { return nil }
        if let lockedUntil = try row.decode(column: "locked_until", as: Double?.self) { return lockedUntil }
        return try row.decode(column: "charged", as: Int.self) >= budget.limit ? windowStart + budget.window : nil
    }

    /// Gives back the charge of a guess that was right (or of a send that did not happen).
    func refund(_ guardKey: GuardKey, on database: any Database) async throws {
        let key = guardKey.rawValue
        try await database.sql.raw(
            "UPDATE guess_budgets SET charged = charged - 1 WHERE key = \(bind: key) AND charged > 0"
        ).run()
    }

    /// After a wrong guess: locks `key` until its window ends when the budget is now spent. Returns
    /// the lock's end only to the one request that started it (which tells the owner, once).
    func lockIfSpent(_ guardKey: GuardKey, _ budget: GuessBudget, now: Double, on database: any Database) async throws
        -> Date?
    {
        let key = guardKey.rawValue
        let rows = try await database.sql.raw(
            """
            UPDATE guess_budgets SET locked_until = window_start + \(bind: budget.window)
            WHERE key = \(bind: key) AND charged >= \(bind: budget.limit) AND locked_until IS NULL
              AND window_start > \(bind: now - budget.window)
            RETURNING locked_until
            """
        ).all()
        guard let row = rows.first, let until = try row.decode(column: "locked_until", as: Double?.self) else {
            return nil
        }
        return Date(timeIntervalSince1970: until)
    }

    /// The budget rows of `guardKeys` (keys without a row are left out), for the operator's view of locks.
    func rows(_ guardKeys: [GuardKey], on database: any Database) async throws -> [GuessBudgetRecord] {
        try await GuessBudgetRecord.query(on: database).filter(\.$id ~~ guardKeys.map(\.rawValue)).all()
    }

    /// Forgets the budgets of several keys in one statement (an operator's unlock).
    func clear(_ guardKeys: [GuardKey], on database: any Database) async throws {
        let keys = guardKeys.map(\.rawValue)
        guard !keys.isEmpty else { return }
        try await database.sql.delete(from: GuessBudgetRecord.schema).where("key", .in, keys).run()
    }

    /// Forgets `key`'s budget (the owner proved the mailbox with a password reset).
    func clear(_ guardKey: GuardKey, on database: any Database) async throws {
        let key = guardKey.rawValue
        try await database.sql.raw("DELETE FROM guess_budgets WHERE key = \(bind: key)").run()
    }
}
