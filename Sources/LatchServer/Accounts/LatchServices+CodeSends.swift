import FluentKit
import Foundation
import LatchCore

extension LatchServices {
    /// Counts one code about to be sent (`key`: `.emailCodeSends` or `.signInCodeSends`) against its
    /// daily cap (`GuessBudget.sends`); 429 with `retry_after` once the cap is reached.
    /// Returns the key to refund when the code is not sent after all.
    @discardableResult
    func chargeCodeSend(_ key: GuardKey, on database: any Database) async throws -> GuardKey {
        let now = clock.epochSeconds
        switch try await budgets.charge(key, .sends, now: now, on: database) {
        case .charged:
            return key
        case .spent(let until):
            throw LatchError.rateLimited(retryAfter: Int((until.timeIntervalSince1970 - now).rounded(.up)))
        }
    }

    /// Gives back a send charged by `chargeCodeSend(to:on:)` (its returned `key`) that did not happen.
    func refundCodeSend(_ key: GuardKey, on database: any Database) async throws {
        try await budgets.refund(key, on: database)
    }
}
