import Foundation
import LatchCore

extension LatchConfig {
    /// Reads the security hold's settings of issue 19 §2: `LATCH_SECURITY_HOLD_HOURS` (0–8760, default
    /// 24; 0: no holds) and `LATCH_HOLD_ACTIONS` (comma-separated action names as `POST /v1/verifications`
    /// takes them, default `withdrawal`), and issue 20 §2's `LATCH_SECURITY_MAILS_PER_HOUR` (1–10000,
    /// default 20) and `LATCH_NOTICE_DIGEST_SECONDS` (0–86400, default 300). A bad value names its variable.
    mutating func readContainment(_ value: (String) -> String?) throws {
        securityHoldHours = try Self.parseInteger(
            "LATCH_SECURITY_HOLD_HOURS", value("LATCH_SECURITY_HOLD_HOURS"), default: securityHoldHours,
            range: 0...8760)
        if let raw = value("LATCH_HOLD_ACTIONS") {
            let actions = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !actions.isEmpty, actions.allSatisfy(Validate.isActionName) else {
                throw ConfigurationError(
                    "LATCH_HOLD_ACTIONS",
                    "must be comma-separated action names (a-z 0-9 _ . -, 1-64 characters) such as withdrawal,internal_transfer (got \(raw))"
                )
            }
            // The ways out of a takeover are never held: listing one would promise a hold latchd cannot keep.
            if let never = actions.first(where: VerificationAction.neverHeld.contains) {
                throw ConfigurationError(
                    "LATCH_HOLD_ACTIONS",
                    "\(never) is never held (freezing, signing in or out and the password reset must stay open during a hold); list the actions a hold should pause, such as withdrawal"
                )
            }
            holdActions = actions
        }
        securityMailsPerHour = try Self.parseInteger(
            "LATCH_SECURITY_MAILS_PER_HOUR", value("LATCH_SECURITY_MAILS_PER_HOUR"), default: securityMailsPerHour,
            range: 1...10_000)
        noticeDigestSeconds = try Self.parseInteger(
            "LATCH_NOTICE_DIGEST_SECONDS", value("LATCH_NOTICE_DIGEST_SECONDS"), default: noticeDigestSeconds,
            range: 0...86_400)
    }
}

extension LatchConfig {
    /// The actions a security hold pauses: `LATCH_HOLD_ACTIONS`, and every action the policy file names
    /// with an amount (issue 41): an action that moves value (a `transfer` beside the `withdrawal`) is what
    /// a thief who just changed a factor comes for, so it is held without a second list to keep in step.
    /// The policy's `default` is not counted (it would hold every action, sign-in among them), nor are the
    /// actions that are never held.
    /// `LATCH_HOLD_ACTIONS`' order first, then the policy's by name.
    var heldActions: [String] {
        let priced = verificationPolicy.actions.filter { $0.value.amount != nil }.keys.sorted()
        var seen = Set<String>()
        return (holdActions + priced).filter { !VerificationAction.neverHeld.contains($0) && seen.insert($0).inserted }
    }
}
