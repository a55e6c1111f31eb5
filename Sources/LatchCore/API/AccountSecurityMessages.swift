import Foundation

/// Why a security hold runs (issue 19 §2): the security change that started it. The wire value is the
/// `reason` of a SECURITY_HOLD error and of `SecurityHoldInfo`.
public enum SecurityHoldReason: String, Sendable, Hashable, CaseIterable, Codable {
    case passwordReset = "password_reset"
    case passwordChanged = "password_changed"
    case totpDisabled = "totp_disabled"
    case totpReset = "totp_reset"
    /// TOTP 2FA turned on (issue 28 §2: a factor added).
    case totpAdded = "totp_added"
    /// The first fund password set (issue 28 §2: a factor added).
    case fundPasswordAdded = "fund_password_added"
    case fundPasswordChanged = "fund_password_changed"
    case fundPasswordReset = "fund_password_reset"
    case passkeyAdded = "passkey_added"
    case deviceKeyAdded = "device_key_added"
    case emailChanged = "email_changed"
    case phoneChanged = "phone_changed"
    case identityLinked = "identity_linked"
    case unfrozen
}

/// One running security hold (`GET /v1/me/security`): the held actions are paused until `holdUntil`.
public struct SecurityHoldInfo: Codable, Sendable, Equatable {
    /// The app's action names that are held (`LATCH_HOLD_ACTIONS`, e.g. `withdrawal`).
    public var actions: [String]
    /// The change that started (or last extended) the hold: a `SecurityHoldReason` raw value.
    public var reason: String
    public var startedAt: Date
    public var holdUntil: Date

    /// `reason` in the shared vocabulary; `nil` for a reason newer than this library.
    public var knownReason: SecurityHoldReason? { SecurityHoldReason(rawValue: reason) }

    public init(actions: [String], reason: String, startedAt: Date, holdUntil: Date) {
        self.actions = actions
        self.reason = reason
        self.startedAt = startedAt
        self.holdUntil = holdUntil
    }

    enum CodingKeys: String, CodingKey {
        case actions, reason
        case startedAt = "started_at"
        case holdUntil = "hold_until"
    }
}

/// `GET /v1/me/security`: the account's containment state (issue 19): the running holds and the
/// anti-phishing code the user chose (`nil` when none is set).
public struct AccountSecurityStatus: Codable, Sendable, Equatable {
    public var holds: [SecurityHoldInfo]
    public var antiPhishingCode: String?

    public init(holds: [SecurityHoldInfo], antiPhishingCode: String?) {
        self.holds = holds
        self.antiPhishingCode = antiPhishingCode
    }

    enum CodingKeys: String, CodingKey {
        case holds
        case antiPhishingCode = "anti_phishing_code"
    }
}

/// `PUT /v1/me/anti-phishing-code`: set or change the code (4–20 visible characters). Needs a sign-in
/// within 10 minutes or a verification token for action `set_anti_phishing_code`. `DELETE` removes it
/// (same recency rule).
public struct AntiPhishingCodeUpdate: Codable, Sendable, Equatable {
    public var code: String
    public var verificationToken: String?

    public init(code: String, verificationToken: String? = nil) {
        self.code = code
        self.verificationToken = verificationToken
    }

    enum CodingKeys: String, CodingKey {
        case code
        case verificationToken = "verification_token"
    }
}

/// `POST /v1/freeze`: freeze an account with the one-time link token from a security mail ("this wasn't
/// me"). Needs no sign-in and answers 202 whether or not the token is valid. (`POST /v1/me/freeze`, with a
/// bearer token and an empty body, freezes the signed-in owner's account: 204.)
public struct FreezeRequest: Codable, Sendable, Equatable {
    public var token: String

    public init(token: String) { self.token = token }
}
