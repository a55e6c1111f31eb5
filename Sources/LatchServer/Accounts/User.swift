import FluentKit
import Foundation
import LatchCore

/// An account. Times are seconds since 1970 so raw SQL compares them alike on SQLite and PostgreSQL.
// Fluent models are classes whose fields are property wrappers Fluent mutates; they are confined
// to one task at a time by the code that loads them, hence @unchecked Sendable.
final class User: Model, @unchecked Sendable {
    static let schema = "users"

    @ID(key: .id) var id: UUID?
    @OptionalField(key: "email") var email: String?
    @Field(key: "email_verified") var emailVerified: Bool
    @OptionalField(key: "password_hash") var passwordHash: String?
    @OptionalField(key: "nickname") var nickname: String?
    @Field(key: "created_at") var createdAt: Double
    /// C8: sign-ins from new devices need a code (on by default).
    @Field(key: "verify_unusual_sign_ins") var verifyUnusualSignIns: Bool
    /// Seed 004 §6.2 "新设备登录时通知": a sign-in from a new device is mailed (on by default).
    @Field(key: "notify_new_devices") var notifyNewDevices: Bool
    /// Set when the account was deleted: the row stays as a tombstone without personal data, so the
    /// security events still point somewhere (see `AccountDeletion`).
    @OptionalField(key: "deleted_at") var deletedAt: Double?
    /// When an operator disabled the account (issue 12); nil: enabled. A disabled account cannot sign in.
    @OptionalField(key: "disabled_at") var disabledAt: Double?
    /// When the account was frozen ("this wasn't me", issue 19 §3); nil: not frozen. A frozen account
    /// cannot sign in until the owner recovers it (`AccountFreezing`).
    @OptionalField(key: "frozen_at") var frozenAt: Double?
    /// Who froze it: `owner`, `freeze_link` or `operator` (`AccountFreezing.Actor`).
    @OptionalField(key: "frozen_by") var frozenBy: String?
    /// The code the user chose to see in every mail from latchd (issue 19 §4); nil: none.
    @OptionalField(key: "anti_phishing_code") var antiPhishingCode: String?

    init() {}

    init(
        id: UUID = UUID(), email: String?, emailVerified: Bool, passwordHash: String?, nickname: String?,
        createdAt: Double
    ) {
        self.id = id
        self.email = email
        self.emailVerified = emailVerified
        self.passwordHash = passwordHash
        self.nickname = nickname
        self.createdAt = createdAt
        self.verifyUnusualSignIns = true
        self.notifyNewDevices = true
    }

    var info: UserInfo {
        UserInfo(
            id: id.map(UUIDText.lowercase) ?? "", email: email, emailVerified: emailVerified, nickname: nickname,
            createdAt: Date(timeIntervalSince1970: createdAt))
    }
}

struct CreateUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema)
            .id()
            .field("email", .string)
            .field("email_verified", .bool, .required)
            .field("password_hash", .string)
            .field("nickname", .string)
            .field("created_at", .double, .required)
            .unique(on: "email")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).delete()
    }
}
