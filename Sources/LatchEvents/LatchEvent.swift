import Foundation

/// One security event from Latch, decoded from a webhook body (`{"type", "timestamp", "data"}`).
///
/// Get one from `LatchWebhook.verify(body:headers:)`, which checks the signature first. Deliveries can
/// repeat (after a timeout or a crash) with the same `id`: drop one you have already handled.
public struct LatchEvent: Sendable, Hashable {
    /// Stable, `evt_` and 32 hex digits; the same on every delivery of the event (the `webhook-id`).
    public let id: String
    public let type: LatchEventType
    /// When the change happened (the body's `timestamp`, not the delivery's `webhook-timestamp`).
    public let timestamp: Date
    /// The account; nil only for events about no account (`ssf.verification`).
    public let userID: String?
    /// The session that caused the change, when there is one.
    public let sessionID: String?
    /// Who caused the change.
    public let actor: Actor
    /// The change's transaction (`txn_…`), shared by every event of one change: a freeze emits
    /// `session.revoked` and `account.frozen` with one `transaction`.
    public let transaction: String
    /// The type's own fields (docs/EVENTS.md), without the ids above. The typed accessors
    /// (`scope`, `credential`, `until`, …) read from here.
    public let data: [String: JSONValue]

    /// Who caused a change.
    public enum Actor: Sendable, Hashable, RawRepresentable {
        /// The account's owner (or whoever holds one of its sessions), or the owner's freeze link.
        case user
        /// An operator, by the admin API or `latchd admin`.
        case `operator`
        /// latchd itself: a lockout after failures, a hold that ran out.
        case system
        /// An actor this version of LatchEvents does not know.
        case unknown(String)

        /// The actor named `rawValue`; `unknown(rawValue)` when it is none of the documented ones. Never nil.
        public init?(rawValue: String) {
            switch rawValue {
            case "user": self = .user
            case "operator": self = .operator
            case "system": self = .system
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .user: "user"
            case .operator: "operator"
            case .system: "system"
            case .unknown(let name): name
            }
        }
    }

    /// An event with these values (for tests of your own handler).
    public init(
        id: String, type: LatchEventType, timestamp: Date, userID: String?, sessionID: String?, actor: Actor,
        transaction: String, data: [String: JSONValue]
    ) {
        self.id = id
        self.type = type
        self.timestamp = timestamp
        self.userID = userID
        self.sessionID = sessionID
        self.actor = actor
        self.transaction = transaction
        self.data = data
    }
}
