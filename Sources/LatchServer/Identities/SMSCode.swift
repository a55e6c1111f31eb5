import FluentKit
import Foundation

/// The pending sign-in code of one phone number, and that number's send counters: one row per
/// number, a new code replacing the old one. The code is stored only as a keyed hash.
// Fluent model (see User for why @unchecked Sendable).
final class SMSCode: Model, @unchecked Sendable {
    static let schema = "sms_codes"

    @ID(custom: "phone", generatedBy: .user) var id: String?
    /// Changes with every code; binds the hash to this code.
    @Field(key: "code_id") var codeID: UUID
    @Field(key: "code_hash") var codeHash: String
    @Field(key: "expires_at") var expiresAt: Double
    @Field(key: "attempts") var attempts: Int
    @Field(key: "sent_at") var sentAt: Double
    /// The start of the current 24-hour send window and the sends in it.
    @Field(key: "day_start") var dayStart: Double
    @Field(key: "day_count") var dayCount: Int

    init() {}
}

/// Sends per client IP address in the current window (all numbers together).
// Fluent model (see User for why @unchecked Sendable).
final class SMSSendWindow: Model, @unchecked Sendable {
    static let schema = "sms_send_windows"

    @ID(custom: "key", generatedBy: .user) var id: String?
    @Field(key: "window_start") var windowStart: Double
    @Field(key: "count") var count: Int

    init() {}
}

struct CreateSMSCodes: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SMSCode.schema)
            .field("phone", .string, .identifier(auto: false))
            .field("code_id", .uuid, .required)
            .field("code_hash", .string, .required)
            .field("expires_at", .double, .required)
            .field("attempts", .int, .required)
            .field("sent_at", .double, .required)
            .field("day_start", .double, .required)
            .field("day_count", .int, .required)
            .create()
        try await database.schema(SMSSendWindow.schema)
            .field("key", .string, .identifier(auto: false))
            .field("window_start", .double, .required)
            .field("count", .int, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SMSSendWindow.schema).delete()
        try await database.schema(SMSCode.schema).delete()
    }
}
