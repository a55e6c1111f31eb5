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
    /// The ways this verification may be answered: only the kinds the policy lets count (issue 30 §2).
    public var methods: [VerificationMethodOffer]
    /// biometric > passkey > totp > fund_password > email_code, among those offered.
    public var preferred: VerificationMethodKind
    public var expiresIn: Int
    /// How many different kinds of factor must pass (1 or 2; 1 from a server without a policy).
    public var requiredFactors: Int
    /// Why the policy asks what it asks (e.g. two factors above an amount); empty for one factor.
    public var reasons: [VerificationReason]

    public init(
        verificationId: String, methods: [VerificationMethodOffer], preferred: VerificationMethodKind, expiresIn: Int,
        requiredFactors: Int = 1, reasons: [VerificationReason] = []
    ) {
        self.verificationId = verificationId
        self.methods = methods
        self.preferred = preferred
        self.expiresIn = expiresIn
        self.requiredFactors = requiredFactors
        self.reasons = reasons
    }

    enum CodingKeys: String, CodingKey {
        case methods, preferred, reasons
        case verificationId = "verification_id"
        case expiresIn = "expires_in"
        case requiredFactors = "required_factors"
    }

    /// Leaves out offers of a method this version does not know (a newer server's), so an older
    /// client still sees the methods it can use; `preferred` falls back to the first of those.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        verificationId = try container.decode(String.self, forKey: .verificationId)
        expiresIn = try container.decode(Int.self, forKey: .expiresIn)
        requiredFactors = try container.decodeIfPresent(Int.self, forKey: .requiredFactors) ?? 1
        reasons = try container.decodeIfPresent([VerificationReason].self, forKey: .reasons) ?? []
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
    /// For `biometric`: base64url of an App Attest assertion over the same `latch-v1` message (issue 31 §2).
    public var appAttestAssertion: String?

    public init(
        method: VerificationMethodKind, credentialId: String? = nil, signature: String? = nil, code: String? = nil,
        fundPassword: String? = nil,
        credential: AuthenticationResponseJSON? = nil, appAttestAssertion: String? = nil
    ) {
        self.method = method
        self.credentialId = credentialId
        self.signature = signature
        self.code = code
        self.fundPassword = fundPassword
        self.credential = credential
        self.appAttestAssertion = appAttestAssertion
    }

    enum CodingKeys: String, CodingKey {
        case method, signature, code, credential
        case credentialId = "credential_id"
        case fundPassword = "fund_password"
        case appAttestAssertion = "app_attest_assertion"
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
    /// The first method that passed.
    public var method: VerificationMethodKind
    /// Every kind that passed, in the order they passed (issue 30 §2).
    public var methods: [VerificationMethodKind]
    /// The RFC 8176 values of `methods` (with `mfa` when two kinds passed).
    public var amr: [String]
    public var verifiedAt: Date

    public init(userId: String, action: String, methods: [VerificationMethodKind], verifiedAt: Date) {
        self.userId = userId
        self.action = action
        self.method = methods.first ?? .biometric
        self.methods = methods
        self.amr = Self.amr(of: methods)
        self.verifiedAt = verifiedAt
    }

    /// The RFC 8176 `amr` of the kinds that passed: each kind's value once, and `mfa` for two kinds.
    public static func amr(of methods: [VerificationMethodKind]) -> [String] {
        var values: [String] = []
        for value in methods.map(\.authenticationMethodReference) where !values.contains(value) {
            values.append(value)
        }
        if Set(methods).count > 1 { values.append("mfa") }
        return values
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userId = try container.decode(String.self, forKey: .userId)
        action = try container.decode(String.self, forKey: .action)
        method = try container.decode(VerificationMethodKind.self, forKey: .method)
        methods = try container.decodeIfPresent([VerificationMethodKind].self, forKey: .methods) ?? [method]
        amr = try container.decodeIfPresent([String].self, forKey: .amr) ?? Self.amr(of: methods)
        verifiedAt = try container.decode(Date.self, forKey: .verifiedAt)
    }

    enum CodingKeys: String, CodingKey {
        case action, method, methods, amr
        case userId = "user_id"
        case verifiedAt = "verified_at"
    }
}

/// Why a verification asks what it asks (issue 30 §2): a stable `code` and a message in the caller's
/// language, e.g. `two_factors_above` "Amounts above 10,000 USDT need two verifications".
public struct VerificationReason: Codable, Sendable, Equatable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// The 200 answer to an attempt that passed while another factor is still needed (issue 30 §2): no
/// proof yet; the kinds passed so far and the offers still open (never a kind that passed).
public struct VerificationProgress: Codable, Sendable, Equatable {
    public var remainingFactors: Int
    public var passed: [VerificationMethodKind]
    public var methods: [VerificationMethodOffer]

    public init(remainingFactors: Int, passed: [VerificationMethodKind], methods: [VerificationMethodOffer]) {
        self.remainingFactors = remainingFactors
        self.passed = passed
        self.methods = methods
    }

    enum CodingKeys: String, CodingKey {
        case passed, methods
        case remainingFactors = "remaining_factors"
    }
}

/// What an attempt that passed answers: the proof, or (while another factor is needed) the progress.
public enum VerificationAttemptResult: Codable, Sendable, Equatable {
    case passed(VerificationPassed)
    case needsAnotherFactor(VerificationProgress)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: VerificationPassed.CodingKeys.self)
        if container.contains(.verificationToken) {
            self = .passed(try VerificationPassed(from: decoder))
        } else {
            self = .needsAnotherFactor(try VerificationProgress(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .passed(let passed): try passed.encode(to: encoder)
        case .needsAnotherFactor(let progress): try progress.encode(to: encoder)
        }
    }
}
