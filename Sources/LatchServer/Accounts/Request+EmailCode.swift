import Fluent
import Foundation
import LatchCore
import Vapor

/// Who hears of it when an address's emailed codes lock.
enum CodeLockRecipient {
    /// The address the codes went to.
    case codeAddress
    case address(String)
    case nobody
}

extension Request {
    /// Checks an emailed `code` (selected by `id`, or by `purpose` and `email`) as one guess against
    /// the address's budget of wrong codes (`GuessBudget.codes`), which resends and new codes do not
    /// reset. A guess when no code is live costs nothing. Returns what the code carried; throws
    /// AUTH_003 with the tries left, or AUTH_002 with `locked_until` once the budget is spent.
    func checkEmailCode(
        _ code: String, purpose: EmailCode.Purpose, id: UUID? = nil, email: String? = nil, owner: User?,
        tell recipient: CodeLockRecipient
    ) async throws -> EmailCodeStore.MatchedCode {
        let latch = self.latch
        let store = latch.emailCodes
        guard
            let target = try await store.liveTarget(
                purpose, id: id, email: email, now: latch.clock.epochSeconds, on: db)
        else {
            throw LatchError.wrongCode(attemptsRemaining: 0)
        }
        let notice: LockNotice =
            switch recipient {
            case .codeAddress: .mail(to: target, MailTemplates.codesLocked(until:language:))
            case .address(let address): .mail(to: address, MailTemplates.codesLocked(until:language:))
            case .nobody: .nobody
            }
        var checked = EmailCodeStore.Check.wrong(attemptsRemaining: 0)
        let result = try await guardedCheck(
            throttle: nil, budget: .codes, key: "code:\(purpose.rawValue):\(target)", owner: owner,
            failureEvent: .codeFailed, notice: notice
        ) {
            checked = try await store.check(
                code, purpose: purpose, id: id, email: email, now: latch.clock.epochSeconds, on: db)
            if case .matched = checked { return true }
            return false
        }
        switch (result, checked) {
        case (.matched, .matched(let matched)):
            return matched
        case (.failed(let budgetLeft), .wrong(let codeLeft)):
            throw LatchError.wrongCode(attemptsRemaining: min(codeLeft, budgetLeft))
        case (.locked(let until), _):
            throw LatchError.locked(until: until)
        case (.matched, .wrong), (.failed, .matched):
            preconditionFailure("guardedCheck reports what the check returned")
        }
    }

    /// `LatchServices.chargeCodeSend(to:on:)` for this request: one code about to be sent to `target`
    /// against its daily cap; 429 with `retry_after` once reached. Returns the key to
    /// `refundCodeSend(_:)` when the code is not sent after all.
    @discardableResult
    func chargeCodeSend(to target: String) async throws -> String {
        try await latch.chargeCodeSend(to: target, on: db)
    }

    /// Gives back a send charged by `chargeCodeSend(to:)` that did not happen.
    func refundCodeSend(_ key: String) async throws {
        try await latch.budgets.refund(key, on: db)
    }
}
