import FluentKit
import Foundation
import LatchCore

/// What a guarded secret check found.
enum GuardedCheck: Equatable {
    case matched
    /// Wrong; `attemptsBeforeLock` more failures start a lock.
    case failed(attemptsBeforeLock: Int)
    /// Locked (now, or by this very failure, which then told the owner and recorded the lock).
    case locked(until: Date)
}

/// Who hears of a lock when one starts, and in which words.
enum LockNotice {
    /// A mail to the owner's address (nobody when the owner has none, or there is no owner).
    case ownerMail((Date, LatchLanguage) -> MailTemplates.Mail)
    /// A mail to `address` (where the codes went).
    case mail(to: String, (Date, LatchLanguage) -> MailTemplates.Mail)
    /// A text to `phone`.
    case sms(to: String, (Date, LatchLanguage) -> String)
    case nobody
}

/// Guesses at secrets (passwords, fund passwords, codes) behind the lockout ladder and the guess
/// budgets, without HTTP: the routes make one from their request (`Request.secretGuard`), tests
/// from an application's services and a database.
struct SecretGuard {
    let latch: LatchServices
    let metrics: LatchMetrics
    let db: any Database
    /// The client's address, for the security events.
    let clientIP: String?
    /// The language of a lock notice.
    let language: LatchLanguage

    /// Runs `check` (a password, fund password or code comparison) as one guess at the secret named
    /// `key`, behind the lockout ladder `throttle` (consecutive failures; a right answer resets it)
    /// and the failure `budget` (wrong guesses per window; nothing resets it), either of them optional:
    /// refused without checking while locked, counted exactly, the owner told once when a lock starts.
    /// Throws 429 when the checks in flight did not decide in time. A `check` that throws is no guess.
    func guardedCheck(
        throttle: LoginThrottleStore?, budget: GuessBudget?, key: GuardKey, owner: User?, session: UUID? = nil,
        failureEvent: SecurityEvent.Kind, notice: LockNotice, check: () async throws -> Bool
    ) async throws -> GuardedCheck {
        let latch = self.latch
        if let throttle {
            switch try await throttle.admit(key, clock: latch.clock, on: db) {
            case .refused(let until): return .locked(until: until)
            case .busy: throw LatchError.rateLimited(retryAfter: 1)
            case .admitted: break
            }
        }
        var budgetLeft = Int.max
        if let budget {
            switch try await latch.budgets.charge(key, budget, now: latch.clock.epochSeconds, on: db) {
            case .charged(let remaining):
                budgetLeft = remaining
            case .spent(let until):
                try await throttle?.release(key, on: db)
                return .locked(until: until)
            }
        }
        let matched: Bool
        do {
            matched = try await check()
        } catch {
            try? await throttle?.release(key, on: db)
            if budget != nil { try? await latch.budgets.refund(key, on: db) }
            throw error
        }
        let now = latch.clock.epochSeconds
        if matched {
            try await throttle?.finish(key, passwordMatched: true, now: now, on: db)
            if budget != nil { try await latch.budgets.refund(key, on: db) }
            return .matched
        }
        var lockStarts: Date?
        var ladderLeft = Int.max
        if let throttle,
            case .failed(let failures, let until) = try await throttle.finish(
                key, passwordMatched: false, now: now, on: db)
        {
            lockStarts = until
            ladderLeft = throttle.attemptsBeforeLock(failures: failures)
        }
        if let budget, let until = try await latch.budgets.lockIfSpent(key, budget, now: now, on: db) {
            lockStarts = max(lockStarts ?? until, until)
            metrics.exhaustedBudgets.increment(Self.secretKind(of: key.rawValue))
        }
        try await latch.events.record(failureEvent, user: owner?.id, session: session, ip: clientIP, now: now, on: db)
        guard let until = lockStarts else { return .failed(attemptsBeforeLock: max(0, min(ladderLeft, budgetLeft))) }
        metrics.locks.increment(Self.secretKind(of: key.rawValue))
        if let owner {
            try await latch.events.record(.locked, user: owner.id, session: session, ip: clientIP, now: now, on: db)
        }
        await tell(notice, owner: owner, until: until)
        return .locked(until: until)
    }

    /// The metrics label of a guarded key: its first part (`email` for a sign-in password, `fund`,
    /// `totp`, `code`, …), never the address or id after it.
    static func secretKind(of key: String) -> String {
        String(key.prefix { $0 != ":" })
    }

    /// Queues the lock notice. A full delivery queue counts and logs the refusal; the lock itself
    /// stands, so the guess still answers 423 rather than 503 (the lock starts once, by this request).
    private func tell(_ notice: LockNotice, owner: User?, until: Date) async {
        switch notice {
        case .ownerMail(let mail):
            if let email = owner?.email { try? await latch.send(mail(until, language), to: email, lane: .notice) }
        case .mail(let address, let mail):
            try? await latch.send(mail(until, language), to: address, lane: .notice)
        case .sms(let phone, let text):
            try? await latch.delivery.deliver(
                OutgoingMessage(
                    to: phone, channel: OutgoingMessage.smsChannel, subject: "", body: text(until, language), code: nil,
                    createdAt: latch.clock.now))
        case .nobody:
            break
        }
    }

    /// Checks a sign-in `password` for `user` (nil: unknown account, checked against a dummy hash)
    /// behind the C4 ladder and the daily password budget of `throttleKey`. Returns the user when it
    /// matches; otherwise throws AUTH_001 (with the attempts left) or AUTH_002 (with `locked_until`).
    @discardableResult
    func checkPassword(_ password: String, of user: User?, throttleKey: GuardKey, session: UUID? = nil) async throws
        -> User
    {
        let latch = self.latch
        // The bcrypt place is taken before the ladder admits the attempt: a full queue refuses
        // with 429 without counting a failure against the account.
        let result = try await latch.passwords.withPlace {
            try await guardedCheck(
                throttle: latch.throttle, budget: .passwords, key: throttleKey, owner: user, session: session,
                failureEvent: .signInFailed, notice: .ownerMail(MailTemplates.lockWarning(until:language:))
            ) {
                try await latch.passwords.verify(password, against: user?.passwordHash)
            }
        }
        switch result {
        case .matched:
            guard let user else { throw LatchError.wrongCredentials() } // verify never matches without a user
            if let imported = user.passwordHash, imported.hasPrefix(ImportedPasswordHash.columnPrefix),
                let userID = user.id
            {
                // Issue 45 §2: the first right password replaces the imported hash with latchd's own.
                let own = try await latch.passwords.hash(password)
                try await latch.accounts.replacePasswordHash(of: userID, expected: imported, with: own, on: db)
                user.passwordHash = own
            }
            return user
        case .failed(let remaining): throw LatchError.wrongCredentials(attemptsRemaining: remaining)
        case .locked(let until): throw LatchError.locked(until: until)
        }
    }
}
