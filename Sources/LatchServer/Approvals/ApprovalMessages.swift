import Foundation
import LatchCore

/// `POST /v1/approvals`' body: who asks for a sign-in approval.
struct ApprovalRequest: Decodable, Sendable {
    struct Client: Decodable, Sendable {
        var name: String?
        var platform: String?
    }
    struct Device: Decodable, Sendable {
        var id: String?
        var name: String?
    }
    var kind: String?
    var client: Client?
    var device: Device?
}

/// `POST /v1/approvals`' answer (201): what the web shows and polls with.
struct ApprovalCreated: Codable, Sendable, Equatable {
    let approvalId: String
    /// `{issuer}/approve/{id}#s={scan secret}`: a universal link the app claims; it signs no one in.
    let qrUrl: String
    /// The two digits the page shows beside the code.
    let number: String
    /// The secret the web polls `POST /v1/token` with (shown once).
    let pollSecret: String
    let expiresIn: Int
    let interval: Int

    enum CodingKeys: String, CodingKey {
        case number, interval
        case approvalId = "approval_id"
        case qrUrl = "qr_url"
        case pollSecret = "poll_secret"
        case expiresIn = "expires_in"
    }
}

/// `GET /v1/approvals/{id}`' answer: what asks, for the phone to judge.
struct ApprovalDetails: Codable, Sendable, Equatable {
    let approvalId: String
    let kind: String
    let clientName: String?
    let clientPlatform: String?
    let deviceName: String?
    let ip: String?
    let createdAt: Date
    let expiresAt: Date
    /// Whether the web asked from the phone's own address.
    let sameNetwork: Bool
    /// Three two-digit numbers, one of them the page's.
    let numbers: [String]

    enum CodingKeys: String, CodingKey {
        case kind, ip, numbers
        case approvalId = "approval_id"
        case clientName = "client_name"
        case clientPlatform = "client_platform"
        case deviceName = "device_name"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case sameNetwork = "same_network"
    }
}

/// `POST /v1/approvals/{id}/decision`'s body.
struct ApprovalDecisionRequest: Decodable, Sendable {
    var decision: String?
    var number: String?
    var verificationToken: String?
    var scanSecret: String?

    enum CodingKeys: String, CodingKey {
        case decision, number
        case verificationToken = "verification_token"
        case scanSecret = "scan_secret"
    }
}

/// The phone's decision, parsed.
enum ApprovalDecision: Sendable, Equatable {
    case approve(number: String, verificationToken: String?)
    case deny

    init(_ body: ApprovalDecisionRequest) throws {
        switch try body.decision.required("decision") {
        case "approve":
            self = .approve(number: try body.number.required("number"), verificationToken: body.verificationToken)
        case "deny": self = .deny
        default: throw LatchError.invalid("decision", ["unknown"])
        }
    }
}

/// `POST /v1/approvals/{id}/decision`'s answer.
struct ApprovalDecided: Codable, Sendable, Equatable {
    let approvalId: String
    /// `approved` or `denied`.
    let state: String

    enum CodingKeys: String, CodingKey {
        case state
        case approvalId = "approval_id"
    }
}
