import Foundation
import LatchCore

/// A security hold that refuses a sensitive action (403 SECURITY_HOLD, issue 19 §2): after a security
/// change (a password reset, 2FA turned off, a passkey added …) the server pauses the held actions, such
/// as withdrawals, for a while. The verification page shows it instead of the methods.
public struct VerificationHold: Sendable, Equatable {
    /// The held action, e.g. `withdrawal` (the app's own action name).
    public var action: String
    /// The change that started the hold, as the server sent it (a `SecurityHoldReason` raw value).
    public var reason: String
    /// When the action is possible again.
    public var holdUntil: Date
    /// When the hold started, when known (`GET /v1/me/security` says; the error answer does not): the
    /// page then names the hold's length ("24小时" / "24 hours").
    public var startedAt: Date?

    public init(action: String, reason: String, holdUntil: Date, startedAt: Date? = nil) {
        self.action = action
        self.reason = reason
        self.holdUntil = holdUntil
        self.startedAt = startedAt
    }

    /// The hold's length in whole hours (`holdUntil − startedAt`, rounded), when the start is known.
    public var hours: Int? {
        startedAt.map { Int((holdUntil.timeIntervalSince($0) / 3600).rounded()) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// This hold with its start taken from the account's running holds (`GET /v1/me/security`): the one
    /// that holds `action` and ends last.
    public func started(from status: AccountSecurityStatus) -> VerificationHold {
        let match = status.holds.filter { $0.actions.contains(action) }.max { $0.holdUntil < $1.holdUntil }
        var hold = self
        hold.startedAt = match?.startedAt ?? startedAt
        return hold
    }

    /// `reason` in the shared vocabulary; `nil` for a reason newer than this library.
    public var knownReason: SecurityHoldReason? { SecurityHoldReason(rawValue: reason) }

    /// The hold a SECURITY_HOLD answer describes; `nil` for any other answer.
    public init?(_ error: LatchServerError) {
        guard case .securityHold(let hold) = VerificationServerFailure(error) else { return nil }
        self = hold
    }
}
