import Foundation

/// A verification started elsewhere that asks to be approved on the phone (issue 43 §2), as stored: one
/// row per verification with `approve_on: "device"`, beside its `verifications` row.
struct PushApproval: Sendable, Equatable {
    /// Where a push approval stands.
    enum State: String, Sendable {
        /// Waiting for the phone.
        case pending
        /// The phone's factor completed the verification; the token waits for the initiator.
        case approved
        /// The phone's user denied it.
        case denied
        /// Ended: a wrong number, a freeze, a hold or a reset, or completed by the initiator itself.
        case ended
    }

    /// The verification's id.
    let id: UUID
    let user: UUID
    /// The session that started the verification: only it collects the token.
    let initiatorSession: UUID
    let action: String
    /// The action's parameters, for the unlocked phone to show.
    let parameters: [String: String]
    /// The two digits the initiator shows.
    let number: String
    /// The three numbers the phone offers, one of them `number`.
    let choices: [String]
    let state: State
    let createdAt: Double
    let expiresAt: Double
    /// The verification token for the initiator, sealed, until it collects it once.
    let sealedToken: String?

    /// At most this many approval pushes per user in `bombingWindow` (issue 43 §2: push bombing).
    static let bombingLimit = 3
    static let bombingWindow: Double = 600
    /// How often the initiator is told to poll, in seconds.
    static let interval = 2
}
