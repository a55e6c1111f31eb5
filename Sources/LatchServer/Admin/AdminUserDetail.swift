import Foundation
import LatchCore

/// One user in full (`GET /v1/admin/users/{id}`, `latchd admin show ID`): identities, live sessions,
/// device keys, passkeys, factor status, active locks and budgets, the latest 50 security events, and
/// (issue 19) whether and by whom the account is frozen and its running security hold.
/// Never a secret, a hash or a key.
public struct AdminUserDetail: Codable, Sendable, Equatable {
    public var user: AdminUser
    public var identities: [IdentityInfo]
    public var sessions: [AdminSession]
    public var deviceCredentials: [DeviceCredentialInfo]
    public var passkeys: [AdminPasskey]
    public var factors: AdminFactors
    public var locks: [AdminLock]
    public var securityEvents: [SecurityEventInfo]
    /// When the account was frozen; nil: not frozen.
    public var frozenAt: Date?
    /// Who froze it: `owner`, `freeze_link` or `operator`.
    public var frozenBy: String?
    /// The running security hold (at most one).
    public var holds: [SecurityHoldInfo] = []

    enum CodingKeys: String, CodingKey {
        case user, identities, sessions, passkeys, factors, locks, holds
        case deviceCredentials = "device_credentials"
        case securityEvents = "security_events"
        case frozenAt = "frozen_at"
        case frozenBy = "frozen_by"
    }

    /// `frozen_at` and `frozen_by` are always there: null when the account is not frozen.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encode(identities, forKey: .identities)
        try container.encode(sessions, forKey: .sessions)
        try container.encode(deviceCredentials, forKey: .deviceCredentials)
        try container.encode(passkeys, forKey: .passkeys)
        try container.encode(factors, forKey: .factors)
        try container.encode(locks, forKey: .locks)
        try container.encode(securityEvents, forKey: .securityEvents)
        try container.encode(frozenAt, forKey: .frozenAt)
        try container.encode(frozenBy, forKey: .frozenBy)
        try container.encode(holds, forKey: .holds)
    }
}

/// A live session (not revoked, not expired).
public struct AdminSession: Codable, Sendable, Equatable {
    public var id: String
    public var deviceName: String?
    public var deviceModel: String?
    public var platform: String?
    public var ip: String?
    public var createdAt: Date
    public var lastActiveAt: Date
    /// Whether the session is bound to a DPoP key (issue 31).
    public var bound: Bool

    enum CodingKeys: String, CodingKey {
        case id, platform, ip, bound
        case deviceName = "device_name"
        case deviceModel = "device_model"
        case createdAt = "created_at"
        case lastActiveAt = "last_active_at"
    }
}

/// A registered passkey (issue 13): its id, name and when it was added.
public struct AdminPasskey: Codable, Sendable, Equatable {
    public var id: String
    public var name: String?
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name
        case createdAt = "created_at"
    }
}

/// Which second factors the user has (on or off; never their secrets).
public struct AdminFactors: Codable, Sendable, Equatable {
    /// TOTP 2FA is active.
    public var totp: Bool
    /// A fund password is set.
    public var fundPassword: Bool
    /// At least one device key for biometric sign-in and step-up is bound.
    public var biometric: Bool

    enum CodingKeys: String, CodingKey {
        case totp, biometric
        case fundPassword = "fund_password"
    }
}

/// An active lock or a spent failure budget of one of the user's targets; `unlock` clears them.
public struct AdminLock: Codable, Sendable, Equatable {
    /// What kind of counter: the consecutive-failure ladder or a daily budget.
    public enum Kind: String, Codable, Sendable { case ladder, budget }

    public var kind: Kind
    /// The target: `email:alice@example.com`, `fund:{user id}`, `code:sms:+86…`, …
    public var key: String
    /// Consecutive failures (ladder) or charges in the window (budget).
    public var count: Int
    /// The lock's end, when the target is locked now.
    public var lockedUntil: Date?

    enum CodingKeys: String, CodingKey {
        case kind, key, count
        case lockedUntil = "locked_until"
    }
}
