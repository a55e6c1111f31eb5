import FluentKit
import FluentSQL
import Foundation
import LatchCore
import SQLKit

/// A device installation id that has signed in to an account (C8): sign-ins from others are unusual.
// Fluent model (see User for why @unchecked Sendable).
final class KnownDevice: Model, @unchecked Sendable {
    static let schema = "known_devices"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "device_id") var deviceID: String
    @Field(key: "first_seen_at") var firstSeenAt: Double

    init() {}
}

/// A pending unusual sign-in: the password was right, and a code (mailed, or from the authenticator
/// app) must follow, within 10 minutes and 5 tries, to finish it with grant `login_challenge`.
// Fluent model (see User for why @unchecked Sendable).
final class LoginChallenge: Model, @unchecked Sendable {
    static let schema = "login_challenges"
    static let lifetime: Double = 600
    static let maximumAttempts = 5

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    /// `email` or `totp` (`LoginChallengeMethod`).
    @Field(key: "method") var method: String
    @OptionalField(key: "code_hash") var codeHash: String?
    @Field(key: "expires_at") var expiresAt: Double
    @Field(key: "attempts") var attempts: Int
    @OptionalField(key: "used_at") var usedAt: Double?
    @OptionalField(key: "device_id") var deviceID: String?
    @OptionalField(key: "device_name") var deviceName: String?
    @OptionalField(key: "device_model") var deviceModel: String?
    @OptionalField(key: "platform") var platform: String?

    init() {}

    /// `method` in the shared vocabulary (only the server writes it: always a known one).
    var kind: LoginChallengeMethod { LoginChallengeMethod(rawValue: method) ?? .email }
}

struct CreateNewDeviceTables: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(KnownDevice.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("device_id", .string, .required)
            .field("first_seen_at", .double, .required)
            .unique(on: "user_id", "device_id")
            .create()
        try await database.schema(LoginChallenge.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("method", .string, .required)
            .field("code_hash", .string)
            .field("expires_at", .double, .required)
            .field("attempts", .int, .required)
            .field("used_at", .double)
            .field("device_id", .string)
            .field("device_name", .string)
            .field("device_model", .string)
            .field("platform", .string)
            .create()
        try await database.schema(User.schema)
            .field("verify_unusual_sign_ins", .bool, .required, .sql(.default(true)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("verify_unusual_sign_ins").update()
        try await database.schema(LoginChallenge.schema).delete()
        try await database.schema(KnownDevice.schema).delete()
    }
}
