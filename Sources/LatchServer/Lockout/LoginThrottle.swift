import FluentKit
import Foundation

/// The lockout counter of one normalised sign-in identifier (known or not).
// Fluent model (see User for why @unchecked Sendable).
final class LoginThrottle: Model, @unchecked Sendable {
    static let schema = "login_throttles"

    @ID(custom: "key", generatedBy: .user) var id: String?
    @Field(key: "failures") var failures: Int
    @OptionalField(key: "locked_until") var lockedUntil: Double?
    /// Password checks admitted and not yet finished.
    @Field(key: "pending") var pending: Int
    /// When `pending` last grew (older values are from a crashed process and ignored).
    @Field(key: "pending_at") var pendingAt: Double

    init() {}
}

struct CreateLoginThrottles: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LoginThrottle.schema)
            .field("key", .string, .identifier(auto: false))
            .field("failures", .int, .required)
            .field("locked_until", .double)
            .field("pending", .int, .required)
            .field("pending_at", .double, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LoginThrottle.schema).delete()
    }
}
