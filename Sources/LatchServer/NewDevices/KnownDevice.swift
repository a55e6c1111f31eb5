import FluentKit
import Foundation
import LatchCore

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
