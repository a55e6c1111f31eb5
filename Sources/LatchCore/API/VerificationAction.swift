/// The action a verification is for (issue 28 §1): Latch's own actions as one vocabulary that latchd,
/// LatchClient and the `latch` CLI share, open to an app's own (`VerificationAction("internal_transfer")`).
/// On the wire it is its `rawValue` (`a-z 0-9 _ . -`, 1–64 characters).
public struct VerificationAction: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// The app's withdrawal: the action `LATCH_HOLD_ACTIONS` holds by default.
    public static let withdrawal = VerificationAction("withdrawal")
    /// Binding a device key for Face ID / Touch ID sign-in (`POST /v1/device-credentials`).
    public static let bindDevice = VerificationAction("bind_device")
    /// Unbinding one (`DELETE /v1/device-credentials/{id}`, parameters `{credential_id}`).
    public static let unbindDevice = VerificationAction("unbind_device")
    public static let enableTOTP = VerificationAction("enable_totp")
    public static let disableTOTP = VerificationAction("disable_totp")
    public static let setFundPassword = VerificationAction("set_fund_password")
    public static let changeFundPassword = VerificationAction("change_fund_password")
    public static let addPasskey = VerificationAction("add_passkey")
    /// Parameters `{passkey_id}`.
    public static let renamePasskey = VerificationAction("rename_passkey")
    /// Parameters `{passkey_id}`.
    public static let removePasskey = VerificationAction("remove_passkey")
    public static let linkIdentity = VerificationAction("link_identity")
    public static let unlinkIdentity = VerificationAction("unlink_identity")
    public static let setAntiPhishingCode = VerificationAction("set_anti_phishing_code")
    public static let disableUnusualSignInCheck = VerificationAction("disable_unusual_sign_in_check")
    public static let disableNewDeviceNotice = VerificationAction("disable_new_device_notice")
    public static let deleteAccount = VerificationAction("delete_account")
    public static let exportAccount = VerificationAction("export_account")
    /// The phone approves a sign-in on the web (issue 43 §1), bound to `{"approval_id"}`.
    public static let approveSignIn = VerificationAction("approve_sign_in")

    /// Latch's own actions, each guarded by a route of latchd (a recent sign-in or a proof for it).
    public static let builtIn: [VerificationAction] = [
        .bindDevice, .unbindDevice, .enableTOTP, .disableTOTP, .setFundPassword, .changeFundPassword, .addPasskey,
        .renamePasskey, .removePasskey, .linkIdentity, .unlinkIdentity, .setAntiPhishingCode,
        .disableUnusualSignInCheck, .disableNewDeviceNotice, .deleteAccount, .exportAccount, .approveSignIn
    ]

    /// Names latchd uses for steps that are never held — the ways out of a takeover must stay open
    /// during a hold — and that `LATCH_HOLD_ACTIONS` therefore refuses at start (issue 28 §2).
    public static let neverHeld: Set<String> = [
        "freeze", "unfreeze", "sign_in", "sign_out", "logout", "password_reset", "reset_password", "lift_hold"
    ]
}
