import Fluent
import Foundation
import LatchCore
import Vapor

/// What a guarded secret check found.
enum GuardedCheck: Equatable {
    case matched
    /// Wrong; `attemptsBeforeLock` more failures start a lock.
    case failed(attemptsBeforeLock: Int)
    /// Locked (now, or by this very failure, which then mailed the owner and recorded the lock).
    case locked(until: Date)
}

extension Request {
    /// Runs `check` (a password, fund password or code comparison) behind the lockout ladder of
    /// `throttle` for `key`: refused without checking while locked, counted exactly, the owner
    /// warned by mail when a lock starts. Throws 429 when the checks in flight did not decide in time.
    func guardedCheck(
        throttle: LoginThrottleStore, key: String, owner: User?, session: UUID? = nil,
        failureEvent: SecurityEvent.Kind,
        lockMail: (Date, LatchLanguage) -> MailTemplates.Mail = MailTemplates.lockWarning(until:language:),
        check: () async throws -> Bool
    ) async throws -> GuardedCheck {
        let latch = self.latch
        switch try await throttle.admit(key, clock: latch.clock, on: db) {
        case .refused(let until): return .locked(until: until)
        case .busy: throw LatchError.rateLimited(retryAfter: 1)
        case .admitted: break
        }
        let matched: Bool
        do {
            matched = try await check()
        } catch {
            _ = try? await throttle.finish(key, passwordMatched: false, now: latch.clock.epochSeconds, on: db)
            throw error
        }
        let now = latch.clock.epochSeconds
        let outcome = try await throttle.finish(key, passwordMatched: matched, now: now, on: db)
        guard case .failed(let failures, let lockStarts) = outcome else { return .matched }
        try await latch.events.record(failureEvent, user: owner?.id, session: session, ip: clientIP, now: now, on: db)
        guard let until = lockStarts else { return .failed(attemptsBeforeLock: throttle.attemptsBeforeLock(failures: failures)) }
        if let owner {
            try await latch.events.record(.locked, user: owner.id, session: session, ip: clientIP, now: now, on: db)
            if let email = owner.email {
                try await latch.send(lockMail(until, language), to: email)
            }
        }
        return .locked(until: until)
    }

    /// Checks a sign-in `password` for `user` (nil: unknown account, checked against a dummy hash)
    /// behind the C4 ladder of `throttleKey`. Returns the user when it matches; otherwise throws
    /// AUTH_001 (with the attempts left) or AUTH_002 (with `locked_until`).
    @discardableResult
    func checkPassword(_ password: String, of user: User?, throttleKey: String, session: UUID? = nil) async throws -> User {
        let latch = self.latch
        // The bcrypt place is taken before the ladder admits the attempt: a full queue refuses
        // with 429 without counting a failure against the account.
        let result = try await latch.passwords.withPlace {
            try await guardedCheck(
                throttle: latch.throttle, key: throttleKey, owner: user, session: session, failureEvent: .signInFailed
            ) {
                try await latch.passwords.verify(password, against: user?.passwordHash)
            }
        }
        switch result {
        case .matched:
            guard let user else { throw LatchError.wrongCredentials() }  // verify never matches without a user
            return user
        case .failed(let remaining): throw LatchError.wrongCredentials(attemptsRemaining: remaining)
        case .locked(let until): throw LatchError.locked(until: until)
        }
    }
}
