import Fluent
import Foundation
import LatchCore

extension LatchServices {
    /// Counts one code about to be sent to `target` (e.g. `password_reset:alice@example.com`)
    /// against its daily cap (`GuessBudget.sends`); 429 with `retry_after` once the cap is reached.
    /// Returns the key to refund when the code is not sent after all.
    @discardableResult
    func chargeCodeSend(to target: String, on database: any Database) async throws -> String {
        let key = "send:\(target)"
        let now = clock.epochSeconds
        switch try await budgets.charge(key, .sends, now: now, on: database) {
        case .charged:
            return key
        case .spent(let until):
            throw LatchError.rateLimited(retryAfter: Int((until.timeIntervalSince1970 - now).rounded(.up)))
        }
    }

    /// Gives back a send charged by `chargeCodeSend(to:on:)` (its returned `key`) that did not happen.
    func refundCodeSend(_ key: String, on database: any Database) async throws {
        try await budgets.refund(key, on: database)
    }
}
