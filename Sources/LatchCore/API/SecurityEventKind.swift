/// What a security-log entry records, as the API names it (`type` of `SecurityEventInfo`, and of
/// `GET /v1/security-events` entries). The server writes only these; a client reads `type` as a
/// string too (`SecurityEventInfo.kind` is `nil` for a kind newer than this library).
public enum SecurityEventKind: String, Sendable, Hashable, CaseIterable, Codable {
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
    case verificationFailed = "verification_failed"
    case verificationPassed = "verification_passed"
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
    /// The account was frozen ("this wasn't me", issue 19 §3): by the owner's link, the signed-in owner, or
    /// an operator.
    case accountFrozen = "account_frozen"
    /// The account was recovered (password reset with the second factor) or an operator unfroze it.
    case accountUnfrozen = "account_unfrozen"
    /// A security reset ended every way into the account (issue 19 §1).
    case securityReset = "security_reset"
    /// A security hold started or was extended (issue 19 §2).
    case securityHoldStarted = "security_hold_started"
    /// A security hold ended (ran out, or an operator lifted it).
    case securityHoldEnded = "security_hold_ended"
    /// The anti-phishing code was set, changed or removed (issue 19 §4).
    case antiPhishingCodeChanged = "anti_phishing_code_changed"
    /// The verification policy raised a verification above one factor (an amount tier, issue 30 §1).
    case verificationPolicyApplied = "verification_policy_applied"
    /// The verification policy's daily limit refused a verification or its redemption (issue 30 §1).
    case verificationLimitReached = "verification_limit_reached"
    /// A value never used before (e.g. a withdrawal address) was time-locked (issue 30 §1).
    case newValueLocked = "new_value_locked"
    /// A DPoP-bound session's refresh token came without its key's proof (`detail` `missing` or `wrong_key`):
    /// someone holds a copy of it (issue 31 §1). Refused before anything moved.
    case dpopRefused = "dpop_refused"
    /// The phone approved a web or desktop client's sign-in (issue 43 §1); the session it starts is
    /// `signed_in` with method `phone_approval`.
    case signInApproved = "sign_in_approved"
    /// The phone denied a sign-in or an action it was asked to approve (issue 43).
    case approvalDenied = "approval_denied"
    /// The phone picked a number the asking screen did not show: the approval ended for good (issue 43).
    case approvalWrongNumber = "approval_wrong_number"
    /// A phone registered its APNs token for approval pushes on one of its device keys (issue 43 §2);
    /// `detail` names the device.
    case pushTokenRegistered = "push_token_registered"
    /// An operator imported the account from another system (issue 45 §3): no hold and no notice start.
    case accountImported = "account_imported"
}

extension SecurityEventKind {
    @available(*, deprecated, renamed: "verificationFailed")
    public static var stepUpFailed: SecurityEventKind { .verificationFailed }
    @available(*, deprecated, renamed: "verificationPassed")
    public static var stepUpPassed: SecurityEventKind { .verificationPassed }
}
