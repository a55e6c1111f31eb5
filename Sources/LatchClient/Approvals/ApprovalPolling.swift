import Foundation
import LatchCore

/// RFC 8628 §3.5's polling rules for the side that waits for the phone (issue 43): the web polling
/// `POST /v1/token` grant `approval`, or the initiator of an `approve_on: "device"` verification polling it.
/// A pure value: the caller sleeps and sends; the schedule says what comes next.
///
///     var schedule = ApprovalPollSchedule(interval: started.interval, expiresIn: started.expiresIn, now: now)
///     switch schedule.answered(.pending, now: now) {
///     case .pollAgain(let seconds): try await sleep(seconds)    // then poll again
///     case .stop(let end): throw end                            // denied, ended or expired
///     }
public struct ApprovalPollSchedule: Sendable, Equatable {
    /// What one poll answered, short of success.
    public enum Answer: Sendable, Equatable {
        /// `authorization_pending` (or a verification still `pending`): keep polling at the interval.
        case pending
        /// `slow_down`: polled too fast; the interval grows by 5 seconds, for good.
        case slowDown
        /// `access_denied` (or a verification `denied`): the phone said no. Stop.
        case denied
        /// A verification `ended` (a wrong number on the phone). Stop.
        case ended
        /// `expired_token` (or a verification `expired`, or one whose token was collected already). Stop.
        case expired
    }

    /// What to do after an answer.
    public enum Next: Sendable, Equatable {
        /// Poll again after this many seconds.
        case pollAgain(afterSeconds: Int)
        /// Stop polling: the approval is over without success.
        case stop(ApprovalPollEnd)
    }

    /// RFC 8628 §3.5: `slow_down` adds 5 seconds to the interval.
    public static let slowDownStep = 5

    /// Seconds between polls now.
    public private(set) var interval: Int
    /// When the approval ends; polling past it is pointless.
    public let deadline: Date

    /// - Parameters:
    ///   - interval: the server's `interval` (at least 1 is used).
    ///   - expiresIn: the server's `expires_in`.
    ///   - now: the time the approval was started.
    public init(interval: Int, expiresIn: Int, now: Date) {
        self.interval = max(1, interval)
        self.deadline = now.addingTimeInterval(TimeInterval(expiresIn))
    }

    /// The next step after `answer` arrived at `now`.
    public mutating func answered(_ answer: Answer, now: Date) -> Next {
        switch answer {
        case .pending:
            break
        case .slowDown:
            interval += Self.slowDownStep
        case .denied:
            return .stop(.denied)
        case .ended:
            return .stop(.ended)
        case .expired:
            return .stop(.expired)
        }
        // The server ends it at the deadline: one last poll then says so (expired_token), unless that is
        // already past.
        guard now < deadline else { return .stop(.expired) }
        return .pollAgain(afterSeconds: interval)
    }

    /// How a `POST /v1/token` grant `approval` refusal reads (400, the RFC's error code in `reasons`); nil
    /// for any other error, which the caller throws as it is.
    public static func answer(to error: any Error) -> Answer? {
        guard case .server(let server)? = error as? LatchClientError, server.status == 400,
            let reasons = server.details.reasons
        else { return nil }
        if reasons.contains("authorization_pending") { return .pending }
        if reasons.contains("slow_down") { return .slowDown }
        if reasons.contains("access_denied") { return .denied }
        if reasons.contains("expired_token") { return .expired }
        return nil
    }

    /// How a polled verification's state reads, for its initiator: nil when it is approved with the token.
    public static func answer(to verification: PhoneVerificationDetails) -> Answer? {
        switch verification.state {
        case .pending: return .pending
        case .approved: return verification.verificationToken == nil ? .expired : nil
        case .denied: return .denied
        case .ended: return .ended
        case .expired: return .expired
        }
    }
}

/// Why waiting for the phone ended without a session or a token.
public enum ApprovalPollEnd: String, Error, Sendable, Equatable, CaseIterable {
    /// The phone denied it.
    case denied
    /// It ended for good (a wrong number was picked on the phone, or the account was frozen).
    case ended
    /// It expired, or was collected already.
    case expired
}
