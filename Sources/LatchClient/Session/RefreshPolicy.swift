import Foundation

/// When the session's tokens need refreshing (C6), decided from their expiry dates and a `now` given by
/// the caller: no clock is read here.
///
///     let policy = RefreshPolicy()                       // refresh when < 5 minutes remain
///     policy.decision(accessTokenExpiresAt: expiry, refreshTokenExpiresAt: refreshExpiry, now: clock())
public struct RefreshPolicy: Sendable, Equatable {
    /// Refresh when less than this remains of the access token (5 minutes).
    public var margin: TimeInterval

    public init(margin: TimeInterval = 5 * 60) {
        self.margin = margin
    }

    /// What to do before using the access token at `now`.
    public func decision(accessTokenExpiresAt: Date, refreshTokenExpiresAt: Date, now: Date) -> RefreshDecision {
        if refreshTokenExpiresAt <= now { return .sessionOver }
        if accessTokenExpiresAt.timeIntervalSince(now) < margin { return .refresh }
        return .useAccessToken
    }

    /// The moment from which a refresh is due (for an app that schedules one ahead of need).
    public func refreshDate(accessTokenExpiresAt: Date) -> Date {
        accessTokenExpiresAt.addingTimeInterval(-margin)
    }
}

/// The answer of ``RefreshPolicy``.
public enum RefreshDecision: Sendable, Equatable {
    /// At least the margin remains: use the access token as it is.
    case useAccessToken
    /// Less than the margin remains (or the token has expired): refresh first.
    case refresh
    /// The refresh token has expired too: the session is over, the user signs in again.
    case sessionOver
}
