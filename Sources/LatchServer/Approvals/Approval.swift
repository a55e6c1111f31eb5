import Foundation

/// A sign-in asked for by a web or desktop client and decided on the phone (issue 43 §1), as stored.
struct Approval: Sendable, Equatable {
    /// Where an approval stands.
    enum State: String, Sendable {
        /// Waiting for the phone's decision.
        case pending
        /// The phone approved it; the web's next poll collects the session.
        case approved
        /// The phone's user denied it.
        case denied
        /// Ended for good by a refusal (a wrong number, or the scan secret wrong three times).
        case ended
        /// The web collected its session: the approval is used up.
        case consumed
    }

    let id: UUID
    let kind: String
    let scanSecretHash: String
    let pollSecretHash: String
    /// The two digits the web page shows.
    let number: String
    /// The three numbers the phone offers, one of them `number`, in their shown order.
    let choices: [String]
    let clientName: String?
    let clientPlatform: String?
    let deviceID: String?
    let deviceName: String?
    /// The address the web client asked from.
    let ip: String?
    let createdAt: Double
    let expiresAt: Double
    let state: State
    let scanFailures: Int
    let lastPolledAt: Double?
    /// The approving (or denying) user.
    let userID: UUID?
    let approverSessionID: UUID?
    /// The DPoP key (its thumbprint) the web proved when it asked: then only a poll proving the same key
    /// collects the session, and the session is bound to it (issue 43 §1).
    var dpopJKT: String? = nil

    /// How long an approval lives (at most 120 s, issue 43 §1).
    static let lifetime: Double = 120
    /// The polling interval the web is told (RFC 8628 §3.5): 1 s, so the web signs in within about a
    /// second of the phone's yes (issue 43's scan-to-signed-in goal, p95 ≤ 2 s; at 5 s it was 4.9 s).
    static let interval = 1
    /// Wrong scan secrets that end an approval.
    static let scanFailureLimit = 3
    /// The only kind §1 knows.
    static let signInKind = "sign_in"
}
