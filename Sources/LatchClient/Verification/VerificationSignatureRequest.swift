import LatchCore

/// A passed biometric evaluation to prove to the server (A11): the device key signs this
/// verification's challenge bound to the action and its parameters, and the signature is sent as
/// a `biometric` attempt.
public struct VerificationSignatureRequest: Sendable, Equatable {
    /// The verification the attempt belongs to.
    public var verificationID: String
    /// This device's key (its server credential id).
    public var credentialID: String
    /// The server's challenge id, exactly as offered.
    public var challengeID: String
    /// The challenge value.
    public var challenge: String
    /// The action being verified.
    public var context: VerificationContext

    public init(
        verificationID: String, credentialID: String, challengeID: String, challenge: String,
        context: VerificationContext
    ) {
        self.verificationID = verificationID
        self.credentialID = credentialID
        self.challengeID = challengeID
        self.challenge = challenge
        self.context = context
    }

    /// The exact bytes to sign (`latch-v1\nverify:{action}:{digest}\n{challenge_id}\n{challenge}`).
    /// Throws `SignedMessage.InvalidField` if a field contains a line feed.
    public func message() throws -> SignedMessage {
        try SignedMessage.verification(
            action: context.action, parameters: context.parameters, challengeID: challengeID, challenge: challenge)
    }

    /// The attempt to send once `signature` (base64url DER) is made, with App Attest's assertion over the
    /// same message when the app has one (issue 31 §3).
    public func attempt(signature: String, appAttestAssertion: String? = nil) -> VerificationAttempt {
        VerificationAttempt(
            method: .biometric, credentialId: credentialID, signature: signature,
            appAttestAssertion: appAttestAssertion)
    }
}
