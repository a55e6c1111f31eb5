import Foundation
import LatchCore

/// One import line checked, ready for the store (issue 45 §1): every field valid, every hash read and
/// within its caps. Made only by `UserImportRecord.validate`, a pure function of the line.
struct UserImportRecord: Sendable, Equatable {
    var externalID: String?
    var email: EmailAddress?
    var emailVerified: Bool
    var phone: PhoneNumber?
    var nickname: String?
    var createdAt: Double?
    var password: StoredPassword?
    var fundPassword: StoredPassword?
    /// The TOTP secret's raw bytes.
    var totpSecret: [UInt8]?
    var recoveryCodes: [ImportedPasswordHash]
    var identities: [ProvenIdentityKey]
    var knownDevices: [ImportedUserLine.KnownDevice]
    var disabled: Bool
    var frozen: Bool
    /// A legacy digest: the user is asked to change the password.
    var passwordChangeRequired: Bool

    /// A password as latchd will store it.
    enum StoredPassword: Sendable, Equatable {
        /// latchd's own bcrypt (over SHA-256), from another latchd's export: stored as it is.
        case latch(String)
        /// Another system's hash: verified at the first sign-in, then replaced by latchd's own.
        case imported(ImportedPasswordHash)
    }

    /// An identity's provider and subject as `identities` stores them.
    struct ProvenIdentityKey: Sendable, Equatable, Hashable {
        var provider: SignInProvider
        var subject: String
    }

    /// The identities `identities` stores for the user: the line's, and its phone (the SMS sign-in).
    var identityKeys: [ProvenIdentityKey] {
        identities + (phone.map { [ProvenIdentityKey(provider: .phone, subject: $0.value)] } ?? [])
    }

    /// At most this many recovery codes a user (each is checked on a wrong code).
    static let maximumRecoveryCodes = 16
    /// At most this many known devices a user.
    static let maximumKnownDevices = 100
}
