import Foundation
import LatchCore

// The wire messages of issue 43 §2 (docs/APPROVALS.md, "§2 Push approval of an action") as the SDK reads
// and writes them.

/// `PUT /v1/device-credentials/{id}/push-token`'s body: the APNs device token (hex) of this phone.
public struct PushTokenRegistration: Codable, Sendable, Equatable {
    /// The APNs environment the token belongs to.
    public enum Environment: String, Codable, Sendable, CaseIterable {
        case production
        case development
    }

    public var token: String
    public var environment: Environment

    public init(token: String, environment: Environment) {
        self.token = token
        self.environment = environment
    }
}

/// `POST /v1/verifications` with `approve_on: "device"`: a verification the user's phone approves.
public struct PhoneApprovedVerificationRequest: Codable, Sendable, Equatable {
    public var action: String
    public var parameters: [String: String]
    /// Always `device`.
    public var approveOn: String

    public init(action: String, parameters: [String: String]) {
        self.action = action
        self.parameters = parameters
        self.approveOn = "device"
    }

    enum CodingKeys: String, CodingKey {
        case action, parameters
        case approveOn = "approve_on"
    }
}

/// The 201 answer to a verification asked with `approve_on: "device"`: the usual offer, plus the number to
/// show while the phone decides and the seconds between polls.
public struct PhoneApprovalStarted: Decodable, Sendable, Equatable {
    /// The usual answer (the id, the methods this session could answer itself, the lifetime).
    public var verification: VerificationStarted
    /// The two digits to show: the phone's user picks the same among three.
    public var number: String
    /// Seconds between polls of `GET /v1/verifications/{id}`.
    public var interval: Int

    public init(verification: VerificationStarted, number: String, interval: Int) {
        self.verification = verification
        self.number = number
        self.interval = interval
    }

    enum CodingKeys: String, CodingKey {
        case number, interval
    }

    public init(from decoder: any Decoder) throws {
        verification = try VerificationStarted(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(String.self, forKey: .number)
        interval = try container.decodeIfPresent(Int.self, forKey: .interval) ?? 5
    }
}

/// One verification waiting for a phone (`GET /v1/approvals`).
public struct PendingPhoneApproval: Codable, Sendable, Equatable {
    public var verificationId: String
    public var action: String
    public var amount: String?
    public var unit: String?
    /// The action's target (a withdrawal address …).
    public var target: String?
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        verificationId: String, action: String, amount: String? = nil, unit: String? = nil, target: String? = nil,
        createdAt: Date, expiresAt: Date
    ) {
        self.verificationId = verificationId
        self.action = action
        self.amount = amount
        self.unit = unit
        self.target = target
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case action, amount, unit, target
        case verificationId = "verification_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }
}

/// `GET /v1/approvals`' answer.
public struct PendingPhoneApprovals: Codable, Sendable, Equatable {
    public var approvals: [PendingPhoneApproval]

    public init(approvals: [PendingPhoneApproval]) { self.approvals = approvals }
}

/// `GET /v1/verifications/{id}`: a verification as a session of the same user sees it.
public struct PhoneVerificationDetails: Decodable, Sendable, Equatable {
    /// Where the verification stands.
    public enum State: String, Codable, Sendable {
        case pending, approved, denied, ended, expired
    }

    public var verificationId: String
    public var action: String
    public var parameters: [String: String]
    public var amount: String?
    public var unit: String?
    public var target: String?
    public var state: State
    /// `device` for a verification the phone approves.
    public var approveOn: String?
    public var expiresAt: Date
    /// For a session other than the initiator: three numbers, one the initiator shows.
    public var numbers: [String]?
    /// For a session other than the initiator: the live offers (the biometric challenge for its device keys).
    public var methods: [VerificationMethodOffer]?
    /// For the initiating session only, once, after the phone approved.
    public var verificationToken: String?

    public init(
        verificationId: String, action: String, parameters: [String: String], amount: String? = nil,
        unit: String? = nil, target: String? = nil, state: State, approveOn: String? = "device", expiresAt: Date,
        numbers: [String]? = nil, methods: [VerificationMethodOffer]? = nil, verificationToken: String? = nil
    ) {
        self.verificationId = verificationId
        self.action = action
        self.parameters = parameters
        self.amount = amount
        self.unit = unit
        self.target = target
        self.state = state
        self.approveOn = approveOn
        self.expiresAt = expiresAt
        self.numbers = numbers
        self.methods = methods
        self.verificationToken = verificationToken
    }

    enum CodingKeys: String, CodingKey {
        case action, parameters, amount, unit, target, state, numbers, methods
        case verificationId = "verification_id"
        case approveOn = "approve_on"
        case expiresAt = "expires_at"
        case verificationToken = "verification_token"
    }

    /// Offers of a method this version does not know are left out, as `VerificationStarted` does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        verificationId = try container.decode(String.self, forKey: .verificationId)
        action = try container.decode(String.self, forKey: .action)
        parameters = try container.decodeIfPresent([String: String].self, forKey: .parameters) ?? [:]
        amount = try container.decodeIfPresent(String.self, forKey: .amount)
        unit = try container.decodeIfPresent(String.self, forKey: .unit)
        target = try container.decodeIfPresent(String.self, forKey: .target)
        state = try container.decode(State.self, forKey: .state)
        approveOn = try container.decodeIfPresent(String.self, forKey: .approveOn)
        expiresAt = try container.decode(Date.self, forKey: .expiresAt)
        numbers = try container.decodeIfPresent([String].self, forKey: .numbers)
        verificationToken = try container.decodeIfPresent(String.self, forKey: .verificationToken)
        if container.contains(.methods), try !container.decodeNil(forKey: .methods) {
            var list = try container.nestedUnkeyedContainer(forKey: .methods)
            var known: [VerificationMethodOffer] = []
            while !list.isAtEnd {
                do {
                    known.append(try list.decode(VerificationMethodOffer.self))
                } catch is UnknownWireValue {
                    _ = try list.decode(SkippedOffer.self)
                }
            }
            methods = known
        } else {
            methods = nil
        }
    }

    /// Moves past an offer that was not decoded.
    private struct SkippedOffer: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

/// The phone's attempt on a verification it approves: the usual attempt plus the number the user picked.
struct NumberedVerificationAttempt: Encodable, Sendable {
    let attempt: VerificationAttempt
    let number: String

    enum CodingKeys: String, CodingKey { case number }

    func encode(to encoder: any Encoder) throws {
        try attempt.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
    }
}

/// What the phone's passing attempt answers: `{"approved": true}` (the token waits for the initiator), or,
/// under a two-factor policy, the progress.
enum PhoneAttemptAnswer: Decodable, Sendable, Equatable {
    case approved
    case needsAnotherFactor(VerificationProgress)
    /// A server that answers the proof itself (the phone initiated it).
    case passed(VerificationPassed)

    enum CodingKeys: String, CodingKey { case approved }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decodeIfPresent(Bool.self, forKey: .approved) == true {
            self = .approved
            return
        }
        switch try VerificationAttemptResult(from: decoder) {
        case .passed(let passed): self = .passed(passed)
        case .needsAnotherFactor(let progress): self = .needsAnotherFactor(progress)
        }
    }
}

/// `POST /v1/verifications/{id}/deny`'s answer.
public struct PhoneVerificationDenied: Codable, Sendable, Equatable {
    public var verificationId: String
    public var state: String

    public init(verificationId: String, state: String) {
        self.verificationId = verificationId
        self.state = state
    }

    enum CodingKeys: String, CodingKey {
        case state
        case verificationId = "verification_id"
    }
}
