import Foundation

/// `POST /v1/verifications`: ask "is this really the owner?" before `action`.
public struct VerificationRequest: Codable, Sendable, Equatable {
    /// e.g. `withdrawal`.
    public var action: String
    /// The action's parameters (a flat object of strings), bound to the proof by their RFC 8785 digest.
    public var parameters: [String: String]

    public init(action: String, parameters: [String: String] = [:]) {
        self.action = action
        self.parameters = parameters
    }
}

/// One way the user can answer a verification.
public struct VerificationMethodOffer: Codable, Sendable, Equatable {
    public var type: VerificationMethodKind
    /// For `biometric`: the bound device keys, the challenge to sign and its id.
    public var credentialIds: [String]?
    /// For `biometric` and `passkey`: the challenge and its id.
    public var challengeId: String?
    public var challenge: String?
    /// For `passkey`: the request options, whose `challenge` is `PasskeyVerificationChallenge` of this
    /// verification's action, parameters, `challenge_id` and `challenge` (base64url).
    public var options: PublicKeyCredentialRequestOptionsJSON?

    public init(
        type: VerificationMethodKind, credentialIds: [String]? = nil, challengeId: String? = nil,
        challenge: String? = nil,
        options: PublicKeyCredentialRequestOptionsJSON? = nil
    ) {
        self.type = type
        self.credentialIds = credentialIds
        self.challengeId = challengeId
        self.challenge = challenge
        self.options = options
    }

    enum CodingKeys: String, CodingKey {
        case type, challenge, options
        case credentialIds = "credential_ids"
        case challengeId = "challenge_id"
    }
}

/// The 201 answer to `POST /v1/verifications`.
public struct VerificationStarted: Codable, Sendable, Equatable {
    public var verificationId: String
    public var methods: [VerificationMethodOffer]
    /// biometric > passkey > totp > fund_password, among those offered.
    public var preferred: VerificationMethodKind
    public var expiresIn: Int

    public init(
        verificationId: String, methods: [VerificationMethodOffer], preferred: VerificationMethodKind, expiresIn: Int
    ) {
        self.verificationId = verificationId
        self.methods = methods
        self.preferred = preferred
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case methods, preferred
        case verificationId = "verification_id"
        case expiresIn = "expires_in"
    }

    /// Leaves out offers of a method this version does not know (a newer server's), so an older
    /// client still sees the methods it can use; `preferred` falls back to the first of those.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        verificationId = try container.decode(String.self, forKey: .verificationId)
        expiresIn = try container.decode(Int.self, forKey: .expiresIn)
        var list = try container.nestedUnkeyedContainer(forKey: .methods)
        var known: [VerificationMethodOffer] = []
        while !list.isAtEnd {
            do {
                known.append(try list.decode(VerificationMethodOffer.self))
            } catch is UnknownWireValue {
                _ = try list.decode(Skipped.self)
            }
        }
        methods = known
        do {
            preferred = try container.decode(VerificationMethodKind.self, forKey: .preferred)
        } catch is UnknownWireValue {
            guard let first = known.first?.type else {
                throw DecodingError.dataCorruptedError(
                    forKey: .preferred, in: container, debugDescription: "no verification method this version knows")
            }
            preferred = first
        }
    }

    /// Moves past an element that was not decoded.
    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

/// `POST /v1/verifications/{id}/attempts`: one answer by one method.
public struct VerificationAttempt: Codable, Sendable, Equatable {
    public var method: VerificationMethodKind
    public var credentialId: String?
    public var signature: String?
    /// A TOTP code or a recovery code.
    public var code: String?
    public var fundPassword: String?
    /// For `passkey`: the assertion over the offer's `options.challenge`.
    public var credential: AuthenticationResponseJSON?

    public init(
        method: VerificationMethodKind, credentialId: String? = nil, signature: String? = nil, code: String? = nil,
        fundPassword: String? = nil,
        credential: AuthenticationResponseJSON? = nil
    ) {
        self.method = method
        self.credentialId = credentialId
        self.signature = signature
        self.code = code
        self.fundPassword = fundPassword
        self.credential = credential
    }

    enum CodingKeys: String, CodingKey {
        case method, signature, code, credential
        case credentialId = "credential_id"
        case fundPassword = "fund_password"
    }
}

/// A passed verification: a single-use proof for exactly that action and those parameters.
public struct VerificationPassed: Codable, Sendable, Equatable {
    public var verificationToken: String
    public var expiresIn: Int

    public init(verificationToken: String, expiresIn: Int) {
        self.verificationToken = verificationToken
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case verificationToken = "verification_token"
        case expiresIn = "expires_in"
    }
}

/// `POST /v1/verifications/redeem`.
public struct RedeemVerificationRequest: Codable, Sendable, Equatable {
    public var verificationToken: String
    public var action: String
    public var parameters: [String: String]

    public init(verificationToken: String, action: String, parameters: [String: String] = [:]) {
        self.verificationToken = verificationToken
        self.action = action
        self.parameters = parameters
    }

    enum CodingKeys: String, CodingKey {
        case action, parameters
        case verificationToken = "verification_token"
    }
}

/// What a redeemed proof says (exactly once).
public struct RedeemedVerification: Codable, Sendable, Equatable {
    public var userId: String
    public var action: String
    /// The method that passed.
    public var method: VerificationMethodKind
    public var verifiedAt: Date

    public init(userId: String, action: String, method: VerificationMethodKind, verifiedAt: Date) {
        self.userId = userId
        self.action = action
        self.method = method
        self.verifiedAt = verifiedAt
    }

    enum CodingKeys: String, CodingKey {
        case action, method
        case userId = "user_id"
        case verifiedAt = "verified_at"
    }
}
