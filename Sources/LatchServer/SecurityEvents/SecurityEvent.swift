import Fluent
import Foundation
import LatchCore

/// One entry of a user's security log. Failures for unknown accounts are logged with no user.
// Fluent model (see User for why @unchecked Sendable).
final class SecurityEvent: Model, @unchecked Sendable {
    static let schema = "security_events"

    /// What happened.
    enum Kind: String, Sendable {
        case registered
        case signedIn = "signed_in"
        case signInFailed = "sign_in_failed"
        /// A wrong emailed or texted code (registration, reset, email link).
        case codeFailed = "code_failed"
        case locked
        case refreshTokenReused = "refresh_token_reused"
        case signedOut = "signed_out"
        case sessionRevoked = "session_revoked"
        case otherSessionsRevoked = "other_sessions_revoked"
        case passwordResetRequested = "password_reset_requested"
        case passwordReset = "password_reset"
        case passwordChanged = "password_changed"
        case profileUpdated = "profile_updated"
        case totpEnrolled = "totp_enrolled"
        case totpActivated = "totp_activated"
        case totpDisabled = "totp_disabled"
        case recoveryCodeUsed = "recovery_code_used"
        case fundPasswordSet = "fund_password_set"
        case fundPasswordChanged = "fund_password_changed"
        case stepUpFailed = "verification_failed"
        case stepUpPassed = "verification_passed"
        case verificationRedeemed = "verification_redeemed"
        case deviceBound = "device_bound"
        case deviceUnbound = "device_unbound"
        /// A password reset or change removed device keys (of every device, or of the other devices).
        case deviceKeysRemoved = "device_keys_removed"
        case newDeviceSignedIn = "new_device_signed_in"
        case securitySettingsChanged = "security_settings_changed"
        case identityLinked = "identity_linked"
        case identityUnlinked = "identity_unlinked"
        /// The account was deleted (issue 12 §1); the user row left is a tombstone.
        case accountDeleted = "account_deleted"
        /// An operator (admin key or `latchd admin`) acted on the account (issue 12 §2).
        case accountUnlocked = "account_unlocked"
        case accountDisabled = "account_disabled"
        case accountEnabled = "account_enabled"
        case signedOutEverywhere = "signed_out_everywhere"
        case totpReset = "totp_reset"
        case fundPasswordReset = "fund_password_reset"
        case passkeyAdded = "passkey_added"
        case passkeyRemoved = "passkey_removed"
        /// A passkey assertion whose signature counter did not go up: a cloned authenticator, or a replay.
        case passkeyCounterRegressed = "passkey_counter_regressed"
    }

    @ID(key: .id) var id: UUID?
    @OptionalField(key: "user_id") var userID: UUID?
    @Field(key: "type") var type: String
    @OptionalField(key: "session_id") var sessionID: UUID?
    @OptionalField(key: "ip") var ip: String?
    @Field(key: "created_at") var createdAt: Double

    init() {}

    init(userID: UUID?, kind: Kind, sessionID: UUID?, ip: String?, createdAt: Double) {
        self.id = UUID()
        self.userID = userID
        self.type = kind.rawValue
        self.sessionID = sessionID
        self.ip = ip
        self.createdAt = createdAt
    }

    var info: SecurityEventInfo {
        SecurityEventInfo(
            id: id?.uuidString.lowercased() ?? "", type: type, sessionId: sessionID?.uuidString.lowercased(), ip: ip,
            createdAt: Date(timeIntervalSince1970: createdAt))
    }
}

struct CreateSecurityEvents: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SecurityEvent.schema)
            .id()
            .field("user_id", .uuid)
            .field("type", .string, .required)
            .field("session_id", .uuid)
            .field("ip", .string)
            .field("created_at", .double, .required)
            .create()
        try await database.createIndex("security_events_user_id", on: SecurityEvent.schema, columns: "user_id", "created_at")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SecurityEvent.schema).delete()
    }
}
