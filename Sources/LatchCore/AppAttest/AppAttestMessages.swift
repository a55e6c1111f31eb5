import Foundation

/// The 201 answer to `POST /v1/app-attest/challenges`: a single-use challenge (300 s) for one attestation.
/// The same shape as a device key's signature challenge, so the same type.
public typealias AppAttestChallengeInfo = SignatureChallengeInfo

/// The `app_attest` member of a device key bind: Apple's attestation of an App Attest key, over
/// `AppAttestClientData.binding(challenge:publicKey:)`.
public struct AppAttestAttestation: Codable, Sendable, Equatable {
    /// As `DCAppAttestService.generateKey` returned it (base64).
    public var keyId: String
    /// base64url of the attestation object (CBOR).
    public var attestationObject: String
    /// From `POST /v1/app-attest/challenges`.
    public var challengeId: String

    public init(keyId: String, attestationObject: String, challengeId: String) {
        self.keyId = keyId
        self.attestationObject = attestationObject
        self.challengeId = challengeId
    }

    enum CodingKeys: String, CodingKey {
        case keyId = "key_id"
        case attestationObject = "attestation_object"
        case challengeId = "challenge_id"
    }
}

/// The app that binds a device key, as it says of itself (recorded with the binding, shown in the list).
public struct AppIdentity: Codable, Sendable, Equatable {
    /// `CFBundleIdentifier`, e.g. `com.example.wallet`.
    public var bundleId: String
    /// `CFBundleShortVersionString`, e.g. `2.4.1`.
    public var version: String?

    public init(bundleId: String, version: String? = nil) {
        self.bundleId = bundleId
        self.version = version
    }

    enum CodingKeys: String, CodingKey {
        case bundleId = "bundle_id"
        case version
    }
}
