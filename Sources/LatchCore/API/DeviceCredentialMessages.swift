import Foundation

/// `POST /v1/device-credentials`: bind a device key.
public struct DeviceCredentialRequest: Codable, Sendable, Equatable {
    /// base64url of the 65-byte X9.63 uncompressed P-256 point.
    public var publicKey: String
    public var deviceName: String?
    public var biometry: BiometryKind?
    /// Needed when the session signed in more than 10 minutes ago (action `bind_device`).
    public var verificationToken: String?
    /// `secure_enclave` or `software` (`DeviceKeyProtection.bindable`); absent: recorded as `unknown`.
    public var protection: String?
    /// App Attest's attestation of an App Attest key over this bind (issue 31 §2).
    public var appAttest: AppAttestAttestation?
    /// The app that binds the key (recorded, and shown in the list).
    public var app: AppIdentity?

    public init(
        publicKey: String, deviceName: String? = nil, biometry: BiometryKind? = nil, verificationToken: String? = nil,
        protection: String? = nil, appAttest: AppAttestAttestation? = nil, app: AppIdentity? = nil
    ) {
        self.publicKey = publicKey
        self.deviceName = deviceName
        self.biometry = biometry
        self.verificationToken = verificationToken
        self.protection = protection
        self.appAttest = appAttest
        self.app = app
    }

    enum CodingKeys: String, CodingKey {
        case publicKey = "public_key"
        case deviceName = "device_name"
        case biometry
        case verificationToken = "verification_token"
        case protection
        case appAttest = "app_attest"
        case app
    }
}

/// The 201 answer to binding.
public struct DeviceCredentialCreated: Codable, Sendable, Equatable {
    public var credentialId: String

    public init(credentialId: String) { self.credentialId = credentialId }

    enum CodingKeys: String, CodingKey { case credentialId = "credential_id" }
}

/// A bound device key as `GET /v1/device-credentials` lists it.
public struct DeviceCredentialInfo: Codable, Sendable, Equatable {
    public var id: String
    public var deviceName: String?
    /// `face_id`, `touch_id` or `optic_id` (a string: a newer server's sensor still lists).
    public var biometry: String?
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// Where the private key lives: `secure_enclave`, `software`, or `unknown` for keys bound before the
    /// server recorded it (`DeviceKeyProtection`). `nil` only from a server that predates the field.
    public var protection: String?
    /// Whether an App Attest attestation vouches for the key (issue 31 §2); `nil` from an older server.
    public var attested: Bool?
    /// The app that bound the key (attested, or as it said); `nil` when it did not say.
    public var app: AppIdentity?

    /// `biometry` in the shared vocabulary; `nil` when none was given or it is newer than this library.
    public var biometryKind: BiometryKind? { biometry.flatMap(BiometryKind.init(rawValue:)) }

    public init(
        id: String, deviceName: String?, biometry: String?, createdAt: Date, lastUsedAt: Date?,
        protection: String? = nil, attested: Bool? = nil, app: AppIdentity? = nil
    ) {
        self.id = id
        self.deviceName = deviceName
        self.biometry = biometry
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.protection = protection
        self.attested = attested
        self.app = app
    }

    enum CodingKeys: String, CodingKey {
        case id, biometry, protection, attested, app
        case deviceName = "device_name"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }
}

/// A challenge for a device key to sign (`latch-v1` message), 120 s, single use.
public struct SignatureChallengeInfo: Codable, Sendable, Equatable {
    public var challengeId: String
    public var challenge: String
    public var expiresIn: Int

    public init(challengeId: String, challenge: String, expiresIn: Int) {
        self.challengeId = challengeId
        self.challenge = challenge
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case challengeId = "challenge_id"
        case challenge
        case expiresIn = "expires_in"
    }
}

/// The optional body of `DELETE /v1/device-credentials/{id}`: needed when the session signed in more
/// than 10 minutes ago (a verification token for action `unbind_device` with parameters `{credential_id}`).
public struct UnbindDeviceCredentialRequest: Codable, Sendable, Equatable {
    public var verificationToken: String?

    public init(verificationToken: String? = nil) {
        self.verificationToken = verificationToken
    }

    enum CodingKeys: String, CodingKey {
        case verificationToken = "verification_token"
    }
}
