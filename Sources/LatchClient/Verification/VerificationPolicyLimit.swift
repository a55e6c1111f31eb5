/// A policy limit that refuses a sensitive action (403 POLICY_LIMIT, issue 30): the action would pass the
/// limit the operator set for it (a daily withdrawal limit …). The verification page shows it instead of
/// the methods.
public struct VerificationPolicyLimit: Sendable, Equatable {
    /// What the limit counts, as the server sent it (e.g. `USDT`); empty when it did not say.
    public var unit: String
    /// The limit, a decimal string as the server sent it (e.g. `"10000"`).
    public var limit: String
    /// What is left of the limit now, a decimal string (e.g. `"2500.00"`).
    public var remaining: String

    public init(unit: String, limit: String, remaining: String) {
        self.unit = unit
        self.limit = limit
        self.remaining = remaining
    }
}
