import FluentKit
import Foundation
import LatchCore

/// Who hears of it when an address's emailed codes lock.
enum CodeLockRecipient {
    /// The address the codes went to.
    case codeAddress
    case address(String)
    case nobody
}

extension SecretGuard {
    /// Checks an emailed `code` (selected by `id`, or by `purpose` and `email`) as one guess against
    /// the address's budget of wrong codes (`GuessBudget.codes`), which resends and new codes do not
    /// reset. A guess when no code is live costs nothing. Returns what the code carried; throws
    /// AUTH_003 with the tries left, or AUTH_002 with `locked_until` once the budget is spent.
    func checkEmailCode(
        _ code: String, purpose: EmailCode.Purpose, id: UUID? = nil, email: String? = nil, owner: User?,
        tell recipient: CodeLockRecipient
    ) async throws -> EmailCodeStore.MatchedCode {
        let (latch, db) = (self.latch, self.db)
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
            throttle: nil, budget: .codes, key: .emailCode(purpose, target: target), owner: owner,
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
}
