import Foundation
import LatchCore

/// `POST /v1/verifications`' extra field (issue 43 §2): `"approve_on": "device"` asks the phone.
struct ApproveOnRequest: Decodable, Sendable {
    var approveOn: String?

    enum CodingKeys: String, CodingKey { case approveOn = "approve_on" }

    /// Whether the verification is to be approved on the phone; any other value is 422 `approve_on`.
    func onDevice() throws -> Bool {
        switch approveOn {
        case nil: return false
        case "device": return true
        default: throw LatchError.invalid("approve_on", ["unknown"])
        }
    }
}

/// `POST /v1/verifications/{id}/attempts`' extra field: the number the phone's user picked.
struct AttemptNumber: Decodable, Sendable {
    var number: String?
}

/// `POST /v1/verifications`' answer with `approve_on: "device"`: the usual one, plus the number the
/// initiator shows and how often it polls.
struct PushApprovalStarted: Encodable, Sendable {
    let started: VerificationStarted
    let number: String
    let interval: Int

    enum CodingKeys: String, CodingKey { case number, interval }

    func encode(to encoder: any Encoder) throws {
        try started.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(interval, forKey: .interval)
    }
}

/// What an attempt answers: the usual result, or, when the phone's factor completed a verification
/// started elsewhere, `{"approved": true}` (the token waits for the initiator).
enum AttemptAnswer: Encodable, Sendable {
    case result(VerificationAttemptResult)
    case approved

    enum CodingKeys: String, CodingKey { case approved }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .result(let result): try result.encode(to: encoder)
        case .approved:
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(true, forKey: .approved)
        }
    }
}

/// One entry of `GET /v1/approvals`.
struct PendingPushApproval: Encodable, Sendable {
    let verificationId: String
    let action: String
    let amount: String?
    let unit: String?
    let target: String?
    let createdAt: Date
    let expiresAt: Date

    enum CodingKeys: String, CodingKey {
        case action, amount, unit, target
        case verificationId = "verification_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }
}

/// `GET /v1/approvals`' answer.
struct PendingPushApprovals: Encodable, Sendable {
    let approvals: [PendingPushApproval]
}

/// `GET /v1/verifications/{id}`' answer (issue 43 §2).
struct PushApprovalDetails: Encodable, Sendable {
    let verificationId: String
    let action: String
    let parameters: [String: String]
    let amount: String?
    let unit: String?
    let target: String?
    /// `pending`, `approved`, `denied`, `ended` or `expired`.
    let state: String
    let approveOn: String
    let expiresAt: Date
    /// For the phone (a session other than the initiator): the three numbers, and the live offers.
    var numbers: [String]? = nil
    var methods: [VerificationMethodOffer]? = nil
    /// For the initiator, once, after the phone approved.
    var verificationToken: String? = nil

    enum CodingKeys: String, CodingKey {
        case action, parameters, amount, unit, target, state, numbers, methods
        case verificationId = "verification_id"
        case approveOn = "approve_on"
        case expiresAt = "expires_at"
        case verificationToken = "verification_token"
    }
}

/// `POST /v1/verifications/{id}/deny`'s answer.
struct PushApprovalDenied: Encodable, Sendable {
    let verificationId: String
    let state: String

    enum CodingKeys: String, CodingKey {
        case state
        case verificationId = "verification_id"
    }
}
