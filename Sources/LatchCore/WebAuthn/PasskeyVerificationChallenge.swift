import Crypto
import Foundation

/// The WebAuthn challenge of a verification by passkey (ARCHITECTURE.md, "passkeys"):
///
///     SHA-256( UTF-8 "latch-v1\nverify:{action}:{digest}\n{challenge_id}\n{challenge}" )
///
/// the 32 bytes the authenticator signs over (inside the client data), so an assertion made for one
/// action and its parameters never verifies another. The text is `SignedMessage`'s verify message.
public enum PasskeyVerificationChallenge {
    /// The 32 challenge bytes for `action` with parameters digest `digest`.
    public static func bytes(action: String, parametersDigest digest: String, challengeID: String, challenge: String)
        throws
        -> [UInt8]
    {
        let message = try SignedMessage(
            purpose: .verify(action: action, parametersDigest: digest), challengeID: challengeID, challenge: challenge)
        return Array(SHA256.hash(data: message.data))
    }

    /// The same, from the action's parameters.
    public static func bytes(action: String, parameters: [String: String], challengeID: String, challenge: String)
        throws
        -> [UInt8]
    {
        try bytes(
            action: action, parametersDigest: CanonicalParameters.digest(parameters), challengeID: challengeID,
            challenge: challenge)
    }
}

@available(*, deprecated, renamed: "PasskeyVerificationChallenge")
public typealias PasskeyStepUpChallenge = PasskeyVerificationChallenge
