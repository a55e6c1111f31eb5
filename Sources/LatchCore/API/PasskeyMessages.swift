import Foundation

/// The optional body of `POST /v1/passkeys/registration/options`: needed when the session signed in
/// more than 10 minutes ago (a verification token for action `add_passkey`).
public struct PasskeyRegistrationOptionsRequest: Codable, Sendable, Equatable {
    public var verificationToken: String?

    public init(verificationToken: String? = nil) { self.verificationToken = verificationToken }

    enum CodingKeys: String, CodingKey { case verificationToken = "verification_token" }
}

/// The answer to `POST /v1/passkeys/registration/options`: the creation options and the id of their challenge.
public struct PasskeyRegistrationOptions: Codable, Sendable, Equatable {
    public var challengeId: String
    public var options: PublicKeyCredentialCreationOptionsJSON

    public init(challengeId: String, options: PublicKeyCredentialCreationOptionsJSON) {
        self.challengeId = challengeId
        self.options = options
    }

    enum CodingKeys: String, CodingKey {
        case options
        case challengeId = "challenge_id"
    }
}

/// `POST /v1/passkeys`: the new credential answering a registration challenge.
public struct PasskeyRegistrationRequest: Codable, Sendable, Equatable {
    public var challengeId: String
    public var credential: RegistrationResponseJSON
    public var name: String?

    public init(challengeId: String, credential: RegistrationResponseJSON, name: String? = nil) {
        self.challengeId = challengeId
        self.credential = credential
        self.name = name
    }

    enum CodingKeys: String, CodingKey {
        case credential, name
        case challengeId = "challenge_id"
    }
}

/// The 201 answer to `POST /v1/passkeys`.
public struct PasskeyCreated: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var createdAt: Date
    public var backedUp: Bool
    /// `none`, `self` (packed self-attestation, signature checked) or `unverified` (a format latchd
    /// does not check: the credential works, but nothing vouches for the authenticator model).
    public var attestation: String

    public init(id: String, name: String, createdAt: Date, backedUp: Bool, attestation: String) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.backedUp = backedUp
        self.attestation = attestation
    }

    enum CodingKeys: String, CodingKey {
        case id, name, attestation
        case createdAt = "created_at"
        case backedUp = "backed_up"
    }
}

/// A passkey as `GET /v1/passkeys` lists it.
public struct PasskeyInfo: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var backedUp: Bool
    public var backupEligible: Bool
    public var transports: [String]
    public var attestation: String

    public init(
        id: String, name: String, createdAt: Date, lastUsedAt: Date?, backedUp: Bool, backupEligible: Bool,
        transports: [String],
        attestation: String
    ) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.backedUp = backedUp
        self.backupEligible = backupEligible
        self.transports = transports
        self.attestation = attestation
    }

    enum CodingKeys: String, CodingKey {
        case id, name, transports, attestation
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case backedUp = "backed_up"
        case backupEligible = "backup_eligible"
    }
}

/// `PATCH /v1/passkeys/{id}`.
public struct RenamePasskeyRequest: Codable, Sendable, Equatable {
    public var name: String
    /// Needed when the session signed in more than 10 minutes ago: a verification token for action
    /// `rename_passkey` with parameters `{passkey_id}` (issue 20 §7).
    public var verificationToken: String?

    public init(name: String, verificationToken: String? = nil) {
        self.name = name
        self.verificationToken = verificationToken
    }

    enum CodingKeys: String, CodingKey {
        case name
        case verificationToken = "verification_token"
    }
}

/// The optional body of `DELETE /v1/passkeys/{id}`: needed when the session signed in more than
/// 10 minutes ago (a verification token for action `remove_passkey` with parameters `{passkey_id}`).
public struct RemovePasskeyRequest: Codable, Sendable, Equatable {
    public var verificationToken: String?

    public init(verificationToken: String? = nil) { self.verificationToken = verificationToken }

    enum CodingKeys: String, CodingKey { case verificationToken = "verification_token" }
}

/// The optional body of `POST /v1/passkeys/authentication/options`.
public struct PasskeyAuthenticationOptionsRequest: Codable, Sendable, Equatable {
    /// With an email, the options name that account's passkeys; without, any discoverable passkey may answer.
    public var email: String?

    public init(email: String? = nil) { self.email = email }
}

/// The answer to `POST /v1/passkeys/authentication/options`.
public struct PasskeyAuthenticationOptions: Codable, Sendable, Equatable {
    public var challengeId: String
    public var options: PublicKeyCredentialRequestOptionsJSON

    public init(challengeId: String, options: PublicKeyCredentialRequestOptionsJSON) {
        self.challengeId = challengeId
        self.options = options
    }

    enum CodingKeys: String, CodingKey {
        case options
        case challengeId = "challenge_id"
    }
}
