import Fluent
import Foundation
import Vapor

extension Request {
    /// Checks `password` for `user` (nil: unknown account, checked against a dummy hash) behind the
    /// lockout ladder of `throttleKey`. Returns the user when it matches; otherwise throws AUTH_001 (with the
    /// attempts left), AUTH_002 (locked, with `locked_until`; the locking failure also mails the owner
    /// and records the lock) or 429 when the checks in flight did not decide in time.
    @discardableResult
    func checkPassword(_ password: String, of user: User?, throttleKey: String, session: UUID? = nil) async throws -> User {
        let latch = self.latch
        switch try await latch.throttle.admit(throttleKey, clock: latch.clock, on: db) {
        case .refused(let until):
            throw LatchError.locked(until: until)
        case .busy:
            throw LatchError.rateLimited(retryAfter: 1)
        case .admitted:
            break
        }
        let matched: Bool
        do {
            matched = try await latch.passwords.verify(password, against: user?.passwordHash)
        } catch {
            _ = try? await latch.throttle.finish(throttleKey, passwordMatched: false, now: latch.clock.epochSeconds, on: db)
            throw error
        }
        let now = latch.clock.epochSeconds
        let outcome = try await latch.throttle.finish(throttleKey, passwordMatched: matched, now: now, on: db)
        guard case .failed(let failures, let lockStarts) = outcome else {
            guard let user else { throw LatchError.wrongCredentials() }  // verify never matches without a user
            return user
        }
        try await latch.events.record(.signInFailed, user: user?.id, session: session, ip: clientIP, now: now, on: db)
        if let until = lockStarts {
            if let user {
                try await latch.events.record(.locked, user: user.id, session: session, ip: clientIP, now: now, on: db)
                if let email = user.email {
                    await latch.send(MailTemplates.lockWarning(until: until, language: language), to: email)
                }
            }
            throw LatchError.locked(until: until)
        }
        throw LatchError.wrongCredentials(attemptsRemaining: latch.throttle.attemptsBeforeLock(failures: failures))
    }
}
