import Foundation
import Testing

@testable import LatchClient

/// C6: the refresh decision is pure: expiry dates in, decision out, time given by the test.
@Suite("Refresh policy (C6)")
struct RefreshPolicyTests {
    let policy = RefreshPolicy()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var refreshExpiry: Date { now.addingTimeInterval(30 * 86_400) }

    @Test func C6_refreshWhenLessThanFiveMinutesRemain() {
        let expiry = now.addingTimeInterval(4 * 60 + 59)
        #expect(
            policy.decision(accessTokenExpiresAt: expiry, refreshTokenExpiresAt: refreshExpiry, now: now) == .refresh)
    }

    @Test func C6_noRefreshWithSixMinutesLeft() {
        let expiry = now.addingTimeInterval(6 * 60)
        #expect(
            policy.decision(accessTokenExpiresAt: expiry, refreshTokenExpiresAt: refreshExpiry, now: now)
                == .useAccessToken)
    }

    @Test func C6_exactlyFiveMinutesLeftIsNotLessThanFive() {
        let expiry = now.addingTimeInterval(5 * 60)
        #expect(
            policy.decision(accessTokenExpiresAt: expiry, refreshTokenExpiresAt: refreshExpiry, now: now)
                == .useAccessToken)
    }

    @Test func C6_expiredAccessTokenIsRefreshed() {
        let expiry = now.addingTimeInterval(-3600)
        #expect(
            policy.decision(accessTokenExpiresAt: expiry, refreshTokenExpiresAt: refreshExpiry, now: now) == .refresh)
    }

    @Test func C6_expiredRefreshTokenEndsTheSession() {
        let expiry = now.addingTimeInterval(-3600)
        #expect(policy.decision(accessTokenExpiresAt: expiry, refreshTokenExpiresAt: now, now: now) == .sessionOver)
    }

    @Test func C6_refreshDateIsFiveMinutesBeforeExpiry() {
        let expiry = now.addingTimeInterval(7200)
        #expect(policy.refreshDate(accessTokenExpiresAt: expiry) == now.addingTimeInterval(7200 - 300))
        #expect(RefreshPolicy(margin: 60).refreshDate(accessTokenExpiresAt: expiry) == now.addingTimeInterval(7140))
    }
}
