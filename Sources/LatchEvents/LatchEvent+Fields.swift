import Foundation

/// Typed accessors for the fields docs/EVENTS.md documents; each is nil when the event has no such field.
extension LatchEvent {
    /// `session.revoked`: `one`, `others` or `all`.
    public var scope: String? { data["scope"]?.stringValue }
    /// `session.revoked` (`signed_out`, `revoked_by_user`, `operator`, `reset`), `credential.compromised`
    /// (`counter_regressed`, `dpop_missing`, `dpop_wrong_key`), `hold.started` and `hold.ended`.
    public var reason: String? { data["reason"]?.stringValue }
    /// `session.revoked` after a reset: how many `sessions`, `device_keys`, `passkeys` and
    /// `verification_tokens` it ended.
    public var ended: [String: Int]? {
        guard case .object(let counts) = data["ended"] else { return nil }
        return counts.compactMapValues(\.intValue)
    }
    /// `credential.changed` and `credential.compromised`: `password`, `totp`, `fund_password`, `passkey`,
    /// `device_key`, `identity`, `phone`, `email`, `refresh_token`.
    public var credential: String? { data["credential"]?.stringValue }
    /// `credential.changed`: `added`, `removed`, `changed`, `reset`, `reset_by_operator`;
    /// `security_settings.changed` for the anti-phishing code: `set`, `removed`.
    public var change: String? { data["change"]?.stringValue }
    /// `security_settings.changed`: which setting.
    public var setting: String? { data["setting"]?.stringValue }
    /// `account.registered`, `session.established`: whether the session's tokens are bound to a DPoP key.
    public var dpopBound: Bool? { data["dpop_bound"]?.boolValue }
    /// `hold.started` and `new_value.locked`: until when.
    public var until: Date? { data["until"]?.doubleValue.map(Date.init(timeIntervalSince1970:)) }
    /// `hold.started`: the actions refused until `until` (`withdrawal`, …).
    public var actions: [String]? { data["actions"]?.stringsValue }
    /// `verification.redeemed` and `new_value.locked`: the action (`withdrawal`, …).
    public var action: String? { data["action"]?.stringValue }
    /// `verification.redeemed`: the factors used (`fund_password`, `totp`, …).
    public var factors: [String]? { data["factors"]?.stringsValue }
    /// `verification.redeemed`: the authentication methods (RFC 8176: `pin`, `otp`, `mfa`, …).
    public var amr: [String]? { data["amr"]?.stringsValue }
    /// `verification.redeemed`: SHA-256 of the RFC 8785 canonical JSON of the action's parameters.
    public var parametersHash: String? { data["parameters_hash"]?.stringValue }
    /// `new_value.locked`: SHA-256 of the locked value.
    public var valueHash: String? { data["value_hash"]?.stringValue }
    /// `ssf.verification`: the state the receiver sent.
    public var state: String? { data["state"]?.stringValue }
}
