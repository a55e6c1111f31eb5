import FluentKit
import Foundation

/// The failure budget of one target (an address, a number, an account's secret): how many charges
/// stand in the current window, and the lock once they reached the limit. See `GuessBudgetStore`.
// Fluent model (see User for why @unchecked Sendable).
final class GuessBudgetRecord: Model, @unchecked Sendable {
    static let schema = "guess_budgets"

    /// What is guessed, and at whom: `code:password_reset:alice@example.com`, `fund:{user id}`, …
    @ID(custom: "key", generatedBy: .user) var id: String?
    @Field(key: "window_start") var windowStart: Double
    /// Charges in the window: wrong guesses, plus guesses still being checked.
    @Field(key: "charged") var charged: Int
    /// Set once, by the wrong guess that spent the budget (that request tells the owner).
    @OptionalField(key: "locked_until") var lockedUntil: Double?

    init() {}
}

struct CreateGuessBudgets: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(GuessBudgetRecord.schema)
            .field("key", .string, .identifier(auto: false))
            .field("window_start", .double, .required)
            .field("charged", .int, .required)
            .field("locked_until", .double)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(GuessBudgetRecord.schema).delete()
    }
}
