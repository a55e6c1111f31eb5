import Foundation
import LatchCore

// The wire messages of issue 43 §1 (docs/APPROVALS.md, "§1 QR sign-in") as the SDK reads and writes them.

/// `POST /v1/approvals`' body: the web or desktop client that asks to be signed in by the phone.
public struct SignInApprovalRequest: Codable, Sendable, Equatable {
    /// Who asks: shown on the phone ("Chrome", "macOS").
    public struct Client: Codable, Sendable, Equatable {
        public var name: String?
        public var platform: String?

        public init(name: String?, platform: String?) {
            self.name = name
            self.platform = platform
        }
    }

    /// The asking device: its installation id (a device the account knows gets no new-device notice) and name.
    public struct Device: Codable, Sendable, Equatable {
        public var id: String?
        public var name: String?

        public init(id: String?, name: String?) {
            self.id = id
            self.name = name
        }
    }

    /// Always `sign_in` (the only kind of §1).
    public var kind: String
    public var client: Client
    public var device: Device

    public init(client: Client, device: Device) {
        self.kind = "sign_in"
        self.client = client
        self.device = device
    }
}

/// `POST /v1/approvals`' answer (201): what the web shows (the code's URL and the number) and polls with.
public struct SignInApprovalStarted: Codable, Sendable, Equatable {
    public var approvalId: String
    /// `{issuer}/approve/{id}#s={scan secret}`: the URL the QR code carries; it signs no one in.
    public var qrUrl: String
    /// The two digits to show beside the code.
    public var number: String
    /// The secret of `POST /v1/token` grant `approval` (shown once; keep it on this client).
    public var pollSecret: String
    /// Seconds the approval lives (at most 120).
    public var expiresIn: Int
    /// Seconds between polls (RFC 8628 §3.5).
    public var interval: Int

    public init(approvalId: String, qrUrl: String, number: String, pollSecret: String, expiresIn: Int, interval: Int) {
        self.approvalId = approvalId
        self.qrUrl = qrUrl
        self.number = number
        self.pollSecret = pollSecret
        self.expiresIn = expiresIn
        self.interval = interval
    }

    enum CodingKeys: String, CodingKey {
        case number, interval
        case approvalId = "approval_id"
        case qrUrl = "qr_url"
        case pollSecret = "poll_secret"
        case expiresIn = "expires_in"
    }
}

/// `GET /v1/approvals/{id}?scan_secret=`: what asks to be signed in, for the phone to judge.
public struct SignInApprovalDetails: Codable, Sendable, Equatable {
    public var approvalId: String
    public var kind: String
    public var clientName: String?
    public var clientPlatform: String?
    public var deviceName: String?
    /// The address the web asked from.
    public var ip: String?
    public var createdAt: Date
    public var expiresAt: Date
    /// Whether the web asked from the phone's own address.
    public var sameNetwork: Bool
    /// Three two-digit numbers, one of them the one the web shows.
    public var numbers: [String]

    public init(
        approvalId: String, kind: String = "sign_in", clientName: String?, clientPlatform: String?,
        deviceName: String?, ip: String?, createdAt: Date, expiresAt: Date, sameNetwork: Bool, numbers: [String]
    ) {
        self.approvalId = approvalId
        self.kind = kind
        self.clientName = clientName
        self.clientPlatform = clientPlatform
        self.deviceName = deviceName
        self.ip = ip
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.sameNetwork = sameNetwork
        self.numbers = numbers
    }

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
public struct SignInApprovalDecision: Codable, Sendable, Equatable {
    /// `approve` or `deny`.
    public var decision: String
    /// The number the user picked (approve only).
    public var number: String?
    /// A verification token for `approve_sign_in` bound to `{approval_id}` (approve only).
    public var verificationToken: String?
    /// The code's scan secret, which proves the phone scanned it.
    public var scanSecret: String

    /// Approving with the picked number and the verification's token.
    public static func approve(number: String, verificationToken: String, scanSecret: String) -> Self {
        Self(decision: "approve", number: number, verificationToken: verificationToken, scanSecret: scanSecret)
    }

    /// Denying.
    public static func deny(scanSecret: String) -> Self {
        Self(decision: "deny", number: nil, verificationToken: nil, scanSecret: scanSecret)
    }

    enum CodingKeys: String, CodingKey {
        case decision, number
        case verificationToken = "verification_token"
        case scanSecret = "scan_secret"
    }
}

/// `POST /v1/approvals/{id}/decision`'s answer.
public struct SignInApprovalDecided: Codable, Sendable, Equatable {
    public var approvalId: String
    /// `approved` or `denied`.
    public var state: String

    public init(approvalId: String, state: String) {
        self.approvalId = approvalId
        self.state = state
    }

    enum CodingKeys: String, CodingKey {
        case state
        case approvalId = "approval_id"
    }
}
