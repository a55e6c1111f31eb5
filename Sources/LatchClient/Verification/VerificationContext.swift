import LatchCore

/// The sensitive action a verification protects, kept for the whole flow and handed back on
/// success so the caller continues exactly what it started (A2, A8).
///
///     let context = VerificationContext(
///         action: "withdrawal", parameters: ["amount": "100.00", "currency": "USDT", "address": "TXabc"],
///         localizedReason: "确认提现 100 USDT")
public struct VerificationContext: Sendable, Equatable {
    /// The action type, e.g. `withdrawal`; the proof is bound to it.
    public var action: String
    /// The action's parameters; the proof is bound to their canonical digest (D3).
    public var parameters: [String: String]
    /// What the user is confirming, in their language (the seed's "操作描述", operation description, passed by the caller);
    /// shown on the card (`VerificationScreen.operationDescription`, every page) and by the biometric prompt. `nil` uses the page's own text ("使用面容ID进行验证" / "Use Face ID to verify.").
    public var localizedReason: String?

    public init(action: String, parameters: [String: String] = [:], localizedReason: String? = nil) {
        self.action = action
        self.parameters = parameters
        self.localizedReason = localizedReason
    }

    /// The request that opens a verification on the server (`POST /v1/verifications`).
    public var request: VerificationRequest {
        VerificationRequest(action: action, parameters: parameters)
    }
}
