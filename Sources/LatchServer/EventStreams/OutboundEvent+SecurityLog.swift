import Foundation
import LatchCore

extension OutboundEvent {
    /// The outbound event of one security-log record (issue 42 §1): nil when its kind is internal
    /// (`SecurityEventKind.outbound`), or when the record is a refusal rather than the change (a request
    /// during a running new-value lock records `new_value_locked` again, without the lock's `facts`).
    ///
    /// `detail` is the log's own (a hold's reason, which change of a shared kind, what a reset ended);
    /// `facts` are the named values the recording code knows (a verification's action and amr, a hold's
    /// end). Nothing else reaches `data`.
    static func of(
        _ kind: SecurityEventKind, user: UUID?, session: UUID?, now: Double, actor: String?, detail: String?,
        facts: [String: EventValue], transaction: String
    ) -> OutboundEvent? {
        guard case .emitted(let type) = kind.outbound,
            let data = data(of: kind, type: type, detail: detail, facts: facts)
        else { return nil }
        let who: Actor =
            if actor == "operator" {
                .operator
            } else if session != nil || actor == "owner" || actor == "freeze_link" {
                .user
            } else {
                .system
            }
        return OutboundEvent(
            id: newID(), type: type, occurredAt: now, user: user, session: session, actor: who,
            transaction: transaction, data: data)
    }

    private static func data(
        of kind: SecurityEventKind, type: Kind, detail: String?, facts: [String: EventValue]
    ) -> [String: EventValue]? {
        var data = facts
        switch kind {
        case .registered, .signedIn: data["dpop_bound"] = .bool(detail == "dpop")
        case .signedOut: data.merge(["scope": .string("one"), "reason": .string("signed_out")]) { $1 }
        case .sessionRevoked: data.merge(["scope": .string("one"), "reason": .string("revoked_by_user")]) { $1 }
        case .otherSessionsRevoked:
            data.merge(["scope": .string("others"), "reason": .string("revoked_by_user")]) { $1 }
        case .signedOutEverywhere: data.merge(["scope": .string("all"), "reason": .string("operator")]) { $1 }
        case .securityReset:
            // The reset says its own scope (`facts`): `all`, or `others` for a password change.
            data.merge(["scope": .string("all"), "reason": .string("reset")]) { old, _ in old }
            data["ended"] = .object(counts(in: detail))
        case .passwordReset: data.merge(credential("password", "reset")) { $1 }
        case .passwordChanged: data.merge(credential("password", "changed")) { $1 }
        case .totpActivated: data.merge(credential("totp", "added")) { $1 }
        case .totpDisabled: data.merge(credential("totp", "removed")) { $1 }
        case .totpReset: data.merge(credential("totp", "reset_by_operator")) { $1 }
        case .fundPasswordSet: data.merge(credential("fund_password", "added")) { $1 }
        case .fundPasswordChanged: data.merge(credential("fund_password", "changed")) { $1 }
        case .fundPasswordReset: data.merge(credential("fund_password", "reset_by_operator")) { $1 }
        case .passkeyAdded: data.merge(credential("passkey", "added")) { $1 }
        case .passkeyRemoved: data.merge(credential("passkey", "removed")) { $1 }
        case .deviceBound: data.merge(credential("device_key", "added")) { $1 }
        case .deviceUnbound, .deviceKeysRemoved: data.merge(credential("device_key", "removed")) { $1 }
        case .identityLinked: data.merge(credential(identity(detail), "added")) { $1 }
        case .identityUnlinked: data.merge(credential(identity(detail), "removed")) { $1 }
        case .passkeyCounterRegressed:
            data.merge(["credential": .string("passkey"), "reason": .string("counter_regressed")]) { $1 }
        case .dpopRefused:
            data.merge(["credential": .string("refresh_token"), "reason": .string("dpop_\(detail ?? "refused")")]) {
                $1
            }
        case .securitySettingsChanged: data["setting"] = .string(detail ?? "security_settings")
        case .antiPhishingCodeChanged:
            data["setting"] = .string("anti_phishing_code")
            data["change"] = .string(detail == SecurityChange.Kind.antiPhishingCodeRemoved.rawValue ? "removed" : "set")
        case .securityHoldStarted, .securityHoldEnded: if let detail { data["reason"] = .string(detail) }
        case .newValueLocked: guard facts["action"] != nil else { return nil }
        case .accountImported, .accountFrozen, .accountUnfrozen, .accountDisabled, .accountEnabled, .accountDeleted,
            .locked,
            .accountUnlocked, .refreshTokenReused, .newDeviceSignedIn, .verificationRedeemed:
            break
        case .signInFailed, .codeFailed, .passwordResetRequested, .profileUpdated, .totpEnrolled, .recoveryCodeUsed,
            .verificationFailed, .verificationPassed, .verificationPolicyApplied, .verificationLimitReached,
            .signInApproved, .approvalDenied, .approvalWrongNumber, .pushTokenRegistered:
            return nil // internal (`SecurityEventKind.outbound`)
        }
        return data
    }

    private static func credential(_ credential: String, _ change: String) -> [String: EventValue] {
        ["credential": .string(credential), "change": .string(change)]
    }

    /// Which way in a shared identity kind names: the change kind `SecurityChanges` puts in `detail`.
    private static func identity(_ detail: String?) -> String {
        switch detail.flatMap(SecurityChange.Kind.init(rawValue:)) {
        case .phoneAdded, .phoneRemoved: "phone"
        case .emailAdded, .emailRemoved: "email"
        default: "identity"
        }
    }

    /// `sessions=2 device_keys=1 …` (a reset's detail) as numbers.
    private static func counts(in detail: String?) -> [String: EventValue] {
        var counts: [String: EventValue] = [:]
        for pair in (detail ?? "").split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let count = Int(parts[1]) { counts[String(parts[0])] = .int(count) }
        }
        return counts
    }
}
