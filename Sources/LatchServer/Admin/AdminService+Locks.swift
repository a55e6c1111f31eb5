import FluentKit
import Foundation
import LatchCore

extension AdminService {
    /// Every lockout and budget key that counts against this user, by who guesses at what: the
    /// address's password ladder and budget, its emailed codes and sends, the account's own codes,
    /// fund password and TOTP, and the phone's texted codes (see `guardedCheck` and its callers).
    /// The same list account deletion erases (`GuardKey.ofAccount`, issue 28 §1).
    static func lockKeys(of userID: UUID, email: String?, phone: String?) -> [GuardKey] {
        GuardKey.ofAccount(userID, email: email, phone: phone)
    }

    /// The ladders with failures or a lock, and the budgets that are locked or spent, of the user's keys.
    func locks(of user: User, phone: String?, now: Double) async throws -> [AdminLock] {
        let guardKeys = GuardKey.ofAccount(try user.requireID(), email: user.email, phone: phone)
        let budgetOf = Dictionary(guardKeys.map { ($0.rawValue, $0.budget) }) { first, _ in first }
        let ladders = try await latch.throttle.rows(guardKeys, on: database)
            .filter { $0.failures > 0 || ($0.lockedUntil ?? 0) > now }
            .map {
                AdminLock(
                    kind: .ladder, key: $0.id ?? "", count: $0.failures,
                    lockedUntil: $0.lockedUntil.flatMap { $0 > now ? Date(timeIntervalSince1970: $0) : nil })
            }
        let budgets = try await latch.budgets.rows(guardKeys, on: database)
            .compactMap { record -> AdminLock? in
                let key = record.id ?? ""
                // The notice keys are no guess budgets (`GuardKey.budget`): not a lock to show.
                guard let budget = budgetOf[key] ?? nil else { return nil }
                guard record.windowStart > now - budget.window else { return nil } // the window is over
                let lockedUntil = record.lockedUntil.flatMap { $0 > now ? Date(timeIntervalSince1970: $0) : nil }
                guard lockedUntil != nil || record.charged >= budget.limit else { return nil }
                return AdminLock(kind: .budget, key: key, count: record.charged, lockedUntil: lockedUntil)
            }
        return (ladders + budgets).sorted { ($0.kind.rawValue, $0.key) < ($1.kind.rawValue, $1.key) }
    }

    /// Clears the ladders (failures and lock) and forgets the budgets of `keys` (the step-up methods'
    /// ladders live in the same table as the password's, so one statement covers both).
    func clearLocks(_ keys: [GuardKey]) async throws {
        try await latch.throttle.reset(keys, on: database)
        try await latch.budgets.clear(keys, on: database)
    }
}
