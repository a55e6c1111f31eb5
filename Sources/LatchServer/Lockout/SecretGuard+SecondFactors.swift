import Foundation
import LatchCore

extension SecretGuard {
    /// Checks `candidate` against a fund password hash of `userID` (D2): a bcrypt place first (a full
    /// queue answers 429 without counting), then the method's ladder (5 in a row → 1 hour) and its
    /// daily budget (`GuessBudget.fundPasswords`), the owner mailed when a lock starts.
    func checkFundPassword(_ candidate: String, against hash: String, of userID: UUID, owner: User?, session: UUID?)
        async throws
        -> GuardedCheck
    {
        let latch = self.latch
        let result = try await latch.passwords.withPlace {
            try await guardedCheck(
                throttle: latch.methodThrottle, budget: .fundPasswords, key: .fundPassword(userID),
                owner: owner, session: session, failureEvent: .verificationFailed,
                notice: .ownerMail(MailTemplates.fundPasswordLocked(until:language:))
            ) { try await latch.passwords.verify(candidate, against: hash) }
        }
        if case .matched = result, hash.hasPrefix(ImportedPasswordHash.columnPrefix) {
            // Issue 45 §3: an imported fund password becomes latchd's own bcrypt at its first right answer.
            let own = try await latch.passwords.hash(candidate)
            try await UserImportStore.replaceImportedFundPassword(of: userID, imported: hash, with: own, on: db)
        }
        return result
    }

    /// Runs `check` (a TOTP or recovery code of `userID`) behind the TOTP method's ladder and the
    /// account's daily budget of wrong codes, the owner mailed when a lock starts; used at sign-in
    /// challenges and in step-up, so both draw on one count.
    func checkTOTP(
        of userID: UUID, owner: User?, session: UUID? = nil, failureEvent: SecurityEvent.Kind,
        check: () async throws -> Bool
    ) async throws -> GuardedCheck {
        try await guardedCheck(
            throttle: latch.methodThrottle, budget: .codes, key: .totp(userID), owner: owner,
            session: session, failureEvent: failureEvent, notice: .ownerMail(MailTemplates.totpLocked(until:language:)),
            check: check)
    }
}
