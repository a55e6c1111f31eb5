import Foundation

/// One line of a user import or export file (issue 45 §1, docs/IMPORT.md): one user, as JSON.
///
/// The same shape goes in (`latchd admin import`, `POST /v1/admin/imports`) and comes out
/// (`latchd admin export-users`), so leaving Latch is as easy as arriving.
struct ImportedUserLine: Codable, Sendable, Equatable {
    /// The user's id in the system the file comes from: how a second import finds the same user.
    var externalId: String?
    var email: String?
    var emailVerified: Bool?
    /// E.164 (`+` and 8–15 digits): the user signs in with it by SMS code.
    var phone: String?
    var nickname: String?
    /// Epoch seconds, or an ISO 8601 date and time.
    var createdAt: ImportedDate?
    /// A hash made by another system (`ImportedPasswordHash`) or latchd's own (`latch_bcrypt_sha256`):
    /// a string (bcrypt, PHC, Django), or an object (Firebase's scrypt, a legacy digest, latchd's own).
    var passwordHash: ImportedHashValue?
    var fundPasswordHash: ImportedHashValue?
    var totp: TOTP?
    /// Hashes of unused recovery codes, each in a format `password_hash` takes.
    var recoveryCodes: [ImportedHashValue]?
    var identities: [Identity]?
    var knownDevices: [KnownDevice]?
    var disabled: Bool?
    var frozen: Bool?
    /// Set by an export for a user imported with a legacy digest who has not changed the password since.
    var passwordChangeRequired: Bool?

    /// An authenticator app's secret (RFC 6238).
    struct TOTP: Codable, Sendable, Equatable {
        /// Base32 (RFC 4648), padding and spaces allowed.
        var secret: String
        /// `SHA1` (the only one latchd's codes use).
        var algorithm: String?
        /// 6.
        var digits: Int?
        /// 30 seconds.
        var period: Int?
    }

    /// A way in from another provider: Apple (`sub`) or WeChat (`unionid`, else `openid`).
    struct Identity: Codable, Sendable, Equatable {
        /// `apple` or `wechat`.
        var provider: String
        /// Apple's `sub`.
        var sub: String?
        var unionid: String?
        var openid: String?
    }

    /// A device the user has signed in from: a sign-in from it is not a new device.
    struct KnownDevice: Codable, Sendable, Equatable {
        /// The installation id the app sends as `device.id`.
        var id: String
        var name: String?
        /// Epoch seconds, or an ISO 8601 date and time.
        var lastSeenAt: ImportedDate?
    }

    enum CodingKeys: String, CodingKey {
        case externalId = "external_id"
        case email
        case emailVerified = "email_verified"
        case phone, nickname
        case createdAt = "created_at"
        case passwordHash = "password_hash"
        case fundPasswordHash = "fund_password_hash"
        case totp
        case recoveryCodes = "recovery_codes"
        case identities
        case knownDevices = "known_devices"
        case disabled, frozen
        case passwordChangeRequired = "password_change_required"
    }
}

extension ImportedUserLine.KnownDevice {
    enum CodingKeys: String, CodingKey {
        case id, name
        case lastSeenAt = "last_seen_at"
    }
}
