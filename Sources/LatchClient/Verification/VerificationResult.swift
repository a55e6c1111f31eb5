import LatchCore

/// How a verification flow ended.
public enum VerificationResult: Sendable, Equatable {
    /// Passed by one method: carry on with the action, presenting `proof.token` (A2).
    case succeeded(VerificationProof)
    /// The user cancelled: the action must NOT be executed, and there is no token (A4).
    case cancelled
    /// The flow could not go on; nothing was verified.
    case failed(VerificationFailure)
}

/// A passed verification: the single-use token and the action it was passed for (A2, A8, D3).
public struct VerificationProof: Sendable, Equatable {
    /// The single-use verification token, bound to `context.action` and `context.parameters`.
    public var token: String
    /// Seconds the token stays valid.
    public var expiresIn: Int
    /// The action and parameters the flow was started with, unchanged.
    public var context: VerificationContext
    /// The method that passed.
    public var method: VerificationMethodKind

    public init(token: String, expiresIn: Int, context: VerificationContext, method: VerificationMethodKind) {
        self.token = token
        self.expiresIn = expiresIn
        self.context = context
        self.method = method
    }
}

/// Why a flow ended without a verification.
public enum VerificationFailure: String, Error, Sendable, Equatable, CaseIterable {
    /// The session is over (AUTH_004): the app must sign the user in again.
    case sessionExpired
    /// The user has no way to verify yet (NO_VERIFICATION_METHOD): set a fund password first.
    case noVerificationMethod
}
