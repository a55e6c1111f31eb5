import Crypto
import Foundation

/// What an App Attest attestation or assertion vouches for (issue 31 §2; contract in ARCHITECTURE.md):
/// Apple's `clientDataHash` is the SHA-256 of these bytes, so the app and latchd compute it alike.
public enum AppAttestClientData {
    /// Binding a device key: the UTF-8 bytes of `{challenge}.{public_key}` — the App Attest challenge as
    /// latchd sent it, a dot, and the device `public_key` of the bind request exactly as sent — so the
    /// attestation vouches for the very key being bound.
    public static func binding(challenge: String, publicKey: String) -> [UInt8] {
        Array("\(challenge).\(publicKey)".utf8)
    }

    /// An assertion beside a device-key signature (a biometric verification attempt, the device-key
    /// sign-in grant): the exact `latch-v1` message the device key signs, so the assertion is bound to the
    /// same challenge, action and parameters.
    public static func assertion(over message: SignedMessage) -> [UInt8] { message.bytes }

    /// Apple's `clientDataHash`: SHA-256 of `clientData`.
    public static func hash(_ clientData: [UInt8]) -> Data { Data(SHA256.hash(data: clientData)) }
}
