/// The type of a `LatchEvent`: every type docs/EVENTS.md documents, and `unknown` for one a newer latchd
/// sends (ignore what you do not know; do not refuse it, or its deliveries retry for three days).
public enum LatchEventType: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// `account.registered`: a new account (its first session).
    case accountRegistered
    /// `account.imported`: an operator imported the account from another system.
    case accountImported
    /// `session.established`: a sign-in, any grant.
    case sessionEstablished
    /// `session.new_device`: a sign-in from a device the account did not know.
    case sessionNewDevice
    /// `session.revoked`: one session, the others or all ended (`scope`, `reason`).
    case sessionRevoked
    /// `credential.changed`: a factor or way in added, removed, changed or reset (`credential`, `change`).
    case credentialChanged
    /// `credential.compromised`: a cloned passkey, a DPoP-bound refresh token used without its key.
    case credentialCompromised
    /// `security_settings.changed`: the new-device notice, the unusual-sign-in check, the anti-phishing code.
    case securitySettingsChanged
    /// `account.frozen`: "this wasn't me" (the owner's link, the signed-in owner, an operator).
    case accountFrozen
    /// `account.unfrozen`: the recovery after a freeze.
    case accountUnfrozen
    /// `account.disabled`: an operator's decision.
    case accountDisabled
    /// `account.enabled`: an operator's decision.
    case accountEnabled
    /// `account.deleted`: the owner's deletion or an operator's.
    case accountDeleted
    /// `hold.started`: a security hold started or extended (`reason`, `until`, `actions`).
    case holdStarted
    /// `hold.ended`: a hold ran out or was lifted.
    case holdEnded
    /// `verification.redeemed`: a step-up proof redeemed (`action`, `factors`, `amr`, `parameters_hash`).
    case verificationRedeemed
    /// `lockout.started`: the lockout ladder locked the account.
    case lockoutStarted
    /// `lockout.ended`: an operator unlocked it.
    case lockoutEnded
    /// `refresh_token.reused`: a rotated refresh token presented again (someone holds a copy).
    case refreshTokenReused
    /// `new_value.locked`: a value never used before (a withdrawal address) time-locked by the policy.
    case newValueLocked
    /// `ssf.verification`: a Shared Signals receiver asked for a verification event.
    case ssfVerification
    /// A type this version of LatchEvents does not know, as latchd named it.
    case unknown(String)

    /// The documented types, in docs/EVENTS.md's order.
    public static let known: [LatchEventType] = [
        .accountRegistered, .accountImported, .sessionEstablished, .sessionNewDevice, .sessionRevoked,
        .credentialChanged,
        .credentialCompromised, .securitySettingsChanged, .accountFrozen, .accountUnfrozen, .accountDisabled,
        .accountEnabled, .accountDeleted, .holdStarted, .holdEnded, .verificationRedeemed, .lockoutStarted,
        .lockoutEnded, .refreshTokenReused, .newValueLocked, .ssfVerification
    ]

    /// The type named `rawValue`; `unknown(rawValue)` when it is none of the documented ones. Never nil.
    public init?(rawValue: String) {
        self = Self.known.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }

    /// The type's name on the wire (`account.frozen`).
    public var rawValue: String {
        switch self {
        case .accountRegistered: "account.registered"
        case .accountImported: "account.imported"
        case .sessionEstablished: "session.established"
        case .sessionNewDevice: "session.new_device"
        case .sessionRevoked: "session.revoked"
        case .credentialChanged: "credential.changed"
        case .credentialCompromised: "credential.compromised"
        case .securitySettingsChanged: "security_settings.changed"
        case .accountFrozen: "account.frozen"
        case .accountUnfrozen: "account.unfrozen"
        case .accountDisabled: "account.disabled"
        case .accountEnabled: "account.enabled"
        case .accountDeleted: "account.deleted"
        case .holdStarted: "hold.started"
        case .holdEnded: "hold.ended"
        case .verificationRedeemed: "verification.redeemed"
        case .lockoutStarted: "lockout.started"
        case .lockoutEnded: "lockout.ended"
        case .refreshTokenReused: "refresh_token.reused"
        case .newValueLocked: "new_value.locked"
        case .ssfVerification: "ssf.verification"
        case .unknown(let name): name
        }
    }

    public var description: String { rawValue }
}
