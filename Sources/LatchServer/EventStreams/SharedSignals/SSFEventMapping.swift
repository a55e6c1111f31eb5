import Foundation

/// One CAEP or RISC event of a SET: its type and its event claims.
struct SSFEvent: Sendable, Equatable {
    let type: SSFEventType
    let claims: [String: EventValue]
}

/// Which CAEP 1.0 / RISC 1.0 event an outbound event becomes (issue 42 §2): a pure value, exhaustive over
/// `OutboundEvent.Kind`, so a new outbound type does not build until it says.
///
/// One outbound event becomes at most one SSF event (one SET, one event, as the CAEP interoperability
/// profile asks). Where two fit (a phone added is a new `phone-sms` credential and a changed identifier; a
/// password reset by the owner's emailed code is a recovery and a credential change), `candidates` lists
/// them in order of preference and `event(…, requested:)` takes the first the stream asked for.
///
/// `credential_type` (CAEP 1.0 §3.3): `password` for the password, `pin` for the fund password (a PIN-like
/// secret for withdrawals), `fido2-platform` for a passkey (synced platform authenticators), `app` for TOTP
/// (an authenticator app) and a device key (a key in latchd's own app, unlocked by biometrics), `phone-sms`
/// for a phone number (it signs in by SMS codes). `change_type`: added → `create`, removed → `delete`,
/// changed or reset by the owner → `update`, reset by an operator → `revoke`. No claim carries an email
/// address, phone number, name the owner wrote, or secret.
enum SSFEventMapping {
    /// What an outbound type can become.
    enum Declaration: Sendable, Equatable {
        /// These SSF events, depending on the event's data.
        case mapped([SSFEventType])
        /// No CAEP or RISC event fits, for this reason.
        case unmapped(String)
    }

    static func declaration(of kind: OutboundEvent.Kind) -> Declaration {
        switch kind {
        case .sessionEstablished: .mapped([.sessionEstablished])
        case .sessionRevoked: .mapped([.sessionRevoked, .sessionsRevoked])
        case .credentialChanged: .mapped([.credentialChange, .identifierChanged, .recoveryActivated])
        case .credentialCompromised, .refreshTokenReused: .mapped([.credentialCompromise])
        case .accountFrozen, .accountDisabled: .mapped([.accountDisabled])
        case .accountUnfrozen, .accountEnabled: .mapped([.accountEnabled])
        case .accountDeleted: .mapped([.accountPurged])
        case .ssfVerification: .mapped([.verification])
        case .accountRegistered: .unmapped("neither CAEP 1.0 nor RISC 1.0 has an event for a new account")
        case .accountImported: .unmapped("neither CAEP 1.0 nor RISC 1.0 has an event for an account moved in")
        case .sessionNewDevice:
            .unmapped("the sign-in itself is session-established; CAEP has no event for a device being new")
        case .securitySettingsChanged: .unmapped("latchd's own notice settings: no CAEP or RISC event describes them")
        case .holdStarted, .holdEnded: .unmapped("a security hold is latchd's own pause of listed actions")
        case .verificationRedeemed: .unmapped("a step-up proof redeemed changes no credential, session or account")
        case .lockoutStarted, .lockoutEnded:
            .unmapped("a guess lockout is temporary and ends by itself; RISC account-disabled would overstate it")
        case .newValueLocked: .unmapped("a time lock on a new withdrawal address is latchd's policy, not an SSF event")
        }
    }

    /// Every SSF event type latchd can send (a stream's `events_supported`).
    static var supported: [SSFEventType] {
        let mapped = Set(
            OutboundEvent.Kind.allCases.flatMap { kind -> [SSFEventType] in
                if case .mapped(let types) = declaration(of: kind) { return types }
                return []
            })
        return SSFEventType.allCases.filter(mapped.contains)
    }

    /// The outbound types a stream must hear to deliver `requested` (unknown URIs are ignored; the
    /// verification event is sent on request, never by type).
    static func kinds(for requested: some Sequence<String>) -> Set<OutboundEvent.Kind> {
        let wanted = Set(requested.compactMap(SSFEventType.init(rawValue:))).subtracting([.verification])
        return Set(
            OutboundEvent.Kind.allCases.filter { kind in
                guard case .mapped(let types) = declaration(of: kind) else { return false }
                return !wanted.isDisjoint(with: types)
            })
    }

    /// The SSF event of an outbound event for a stream that asked for `requested` (nil: an operator's stream,
    /// which takes the first that fits); nil when none fits or none was asked for.
    static func event(
        for kind: OutboundEvent.Kind, data: [String: Any], actor: String, occurredAt: Double,
        requested: Set<SSFEventType>?
    ) -> SSFEvent? {
        let fitting = candidates(for: kind, data: data, actor: actor, occurredAt: occurredAt)
        guard let requested else { return fitting.first }
        return fitting.first { requested.contains($0.type) }
    }

    /// The SSF events that fit, in order of preference.
    static func candidates(for kind: OutboundEvent.Kind, data: [String: Any], actor: String, occurredAt: Double)
        -> [SSFEvent]
    {
        let caep = caepClaims(actor: actor, occurredAt: occurredAt)
        switch kind {
        case .sessionEstablished:
            return [SSFEvent(type: .sessionEstablished, claims: caep)]
        case .sessionRevoked:
            var claims = caep
            if let reason = data["reason"] as? String { claims["reason_admin"] = .object(["en": .string(reason)]) }
            let one = (data["scope"] as? String) == "one"
            return [SSFEvent(type: one ? .sessionRevoked : .sessionsRevoked, claims: one ? claims : [:])]
        case .credentialChanged:
            return credentialChange(data: data, caep: caep)
        case .credentialCompromised:
            let type = (data["credential"] as? String) == "passkey" ? "fido2-platform" : "app"
            return [SSFEvent(type: .credentialCompromise, claims: ["credential_type": .string(type)])]
        case .refreshTokenReused:
            // A refresh token lives in the app: `app` is the nearest CAEP credential type.
            return [SSFEvent(type: .credentialCompromise, claims: ["credential_type": .string("app")])]
        case .accountFrozen:
            return [SSFEvent(type: .accountDisabled, claims: ["reason": .string("hijacking")])]
        case .accountDisabled:
            return [SSFEvent(type: .accountDisabled, claims: [:])]
        case .accountUnfrozen, .accountEnabled:
            return [SSFEvent(type: .accountEnabled, claims: [:])]
        case .accountDeleted:
            return [SSFEvent(type: .accountPurged, claims: [:])]
        case .ssfVerification:
            guard let state = data["state"] as? String else { return [SSFEvent(type: .verification, claims: [:])] }
            return [SSFEvent(type: .verification, claims: ["state": .string(state)])]
        case .accountRegistered, .accountImported, .sessionNewDevice, .securitySettingsChanged, .holdStarted,
            .holdEnded,
            .verificationRedeemed, .lockoutStarted, .lockoutEnded, .newValueLocked:
            return []
        }
    }

    private static func credentialChange(data: [String: Any], caep: [String: EventValue]) -> [SSFEvent] {
        let credential = data["credential"] as? String
        let change = data["change"] as? String
        let changeType: String =
            switch change {
            case "added": "create"
            case "removed": "delete"
            case "reset_by_operator": "revoke"
            default: "update"
            }
        func caepChange(_ type: String, friendlyName: String? = nil) -> SSFEvent {
            var claims = caep
            claims["credential_type"] = .string(type)
            claims["change_type"] = .string(changeType)
            if let friendlyName { claims["friendly_name"] = .string(friendlyName) }
            return SSFEvent(type: .credentialChange, claims: claims)
        }
        // RISC identifier-changed without `new-value`: the new address never leaves latchd.
        let identifier = SSFEvent(type: .identifierChanged, claims: [:])
        switch credential {
        case "password" where change == "reset":
            // The owner's emailed reset code: an account recovery.
            return [SSFEvent(type: .recoveryActivated, claims: [:]), caepChange("password")]
        case "password": return [caepChange("password")]
        case "fund_password": return [caepChange("pin", friendlyName: "fund password")]
        case "totp": return [caepChange("app", friendlyName: "TOTP authenticator")]
        case "device_key": return [caepChange("app", friendlyName: "device key")]
        case "passkey": return [caepChange("fido2-platform", friendlyName: "passkey")]
        case "phone": return [caepChange("phone-sms"), identifier]
        case "email": return [identifier]
        default: return [] // a linked Apple or WeChat identity: no CAEP credential type fits
        }
    }

    /// CAEP's optional claims every CAEP event here carries: `event_timestamp` and `initiating_entity`.
    private static func caepClaims(actor: String, occurredAt: Double) -> [String: EventValue] {
        let entity =
            switch actor {
            case "operator": "admin"
            case "user": "user"
            default: "system"
            }
        return ["event_timestamp": .int(Int(occurredAt)), "initiating_entity": .string(entity)]
    }
}
