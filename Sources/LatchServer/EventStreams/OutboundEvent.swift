import Foundation
import LatchCore

/// One event the app's backend hears (issue 42 §1): written in the same transaction as the change it
/// reports, so a change that rolls back emits nothing and a committed one always emits.
///
/// No payload carries an email, phone number, code, token, password or secret: `data` holds only the
/// values its type documents (docs/EVENTS.md), and a device or a locked value appears by its hash.
struct OutboundEvent: Sendable, Equatable {
    /// Stable, `evt_` and 32 hex digits; the same on every delivery of the event.
    let id: String
    let type: Kind
    /// When the change happened (epoch seconds).
    let occurredAt: Double
    let user: UUID?
    /// The session that caused it, when there is one.
    let session: UUID?
    let actor: Actor
    /// The change's transaction (`txn_…`), shared by every event one change emits (a reset ends several
    /// things at once).
    let transaction: String
    let data: [String: EventValue]

    /// The outbound types (issue 42 §1).
    enum Kind: String, Sendable, CaseIterable, Equatable {
        case accountRegistered = "account.registered"
        /// An operator imported the account from another system (issue 45 §3).
        case accountImported = "account.imported"
        case sessionEstablished = "session.established"
        case sessionNewDevice = "session.new_device"
        case sessionRevoked = "session.revoked"
        case credentialChanged = "credential.changed"
        case credentialCompromised = "credential.compromised"
        case securitySettingsChanged = "security_settings.changed"
        case accountFrozen = "account.frozen"
        case accountUnfrozen = "account.unfrozen"
        case accountDisabled = "account.disabled"
        case accountEnabled = "account.enabled"
        case accountDeleted = "account.deleted"
        case holdStarted = "hold.started"
        case holdEnded = "hold.ended"
        case verificationRedeemed = "verification.redeemed"
        case lockoutStarted = "lockout.started"
        case lockoutEnded = "lockout.ended"
        case refreshTokenReused = "refresh_token.reused"
        case newValueLocked = "new_value.locked"
        /// An SSF receiver asked for a verification event (SSF 1.0 §8.1.4): written for its stream alone
        /// (`fanOut: false`), never by a security-log kind.
        case ssfVerification = "ssf.verification"
    }

    /// Who caused the change.
    enum Actor: String, Sendable, Equatable {
        /// The account's owner (or whoever holds one of its sessions), or the owner's freeze link.
        case user
        /// An operator, by the admin API or `latchd admin`.
        case `operator`
        /// latchd itself: a lockout after failures, a hold that ran out.
        case system
    }

    /// A new id: `evt_` and 32 hex digits (128 random bits).
    static func newID() -> String { "evt_" + Hex.lowercase(RandomSecrets.bytes(16)) }
}
