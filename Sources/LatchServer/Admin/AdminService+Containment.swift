import FluentKit
import Foundation
import LatchCore

extension AdminService {
    /// Freezes the account as "this wasn't me" does (issue 19 §3): the security reset, then every grant
    /// answers 403 ACCOUNT_FROZEN until the owner recovers it or an operator unfreezes it. The events
    /// carry actor `operator`.
    public func freeze(_ id: String) async throws {
        try await onUser(id, action: "freeze") { user in
            _ = try await AccountFreezing.freeze(user.requireID(), by: .operator, ip: ip, latch: latch, on: database)
        }
    }

    /// Unfreezes a frozen account (it signs in again) and starts a security hold (reason `unfrozen`).
    public func unfreeze(_ id: String) async throws {
        try await onUser(id, action: "unfreeze") { user in
            _ = try await AccountFreezing.unfreeze(user.requireID(), by: .operator, ip: ip, latch: latch, on: database)
        }
    }

    /// Lifts the user's running security hold (issue 19 §2), recording `security_hold_ended` with actor
    /// `operator`; nothing to lift is fine too.
    public func liftHold(_ id: String) async throws {
        try await onUser(id, action: "lift_hold") { user in
            _ = try await latch.holds.lift(
                of: user.requireID(), actor: AccountFreezing.Actor.operator.rawValue, ip: ip,
                now: latch.clock.epochSeconds, on: database)
        }
    }
}
