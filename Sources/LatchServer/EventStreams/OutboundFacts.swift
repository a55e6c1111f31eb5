import Foundation
import LatchCore

extension RedeemedVerification {
    /// What `verification.redeemed` carries (issue 42 §1): the action, the kinds that passed and their
    /// amr, and the parameters as their digest (the canonical JSON's SHA-256), never the parameters.
    func outboundFacts(parameters: [String: String]) -> [String: EventValue] {
        [
            "action": .string(action), "factors": .strings(methods.map(\.rawValue)), "amr": .strings(amr),
            "parameters_hash": .string(CanonicalParameters.digest(parameters))
        ]
    }
}

extension SecurityChange {
    /// What the outbound event of this change carries beyond its kind (issue 42 §1): for a new-value lock
    /// the action, the value's SHA-256 (never the value) and the lock's end. A passkey's or device's name
    /// is left out: the owner writes it ("Alice's iPhone"), and an account's deletion must leave nothing
    /// that names the person in rows it keeps.
    var outboundFacts: [String: EventValue] {
        switch kind {
        case .newValueLocked:
            var facts: [String: EventValue] = ["value_hash": .string(SecretBox.hash(name ?? ""))]
            if let lockedAction { facts["action"] = .string(lockedAction) }
            if let lockedUntil { facts["until"] = .int(Int(lockedUntil.rounded(.up))) }
            return facts
        default:
            return [:]
        }
    }
}
