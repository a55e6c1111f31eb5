import FluentKit
import LatchCore
import SQLKit

/// `users.hold_lifted_at` (issue 28 §2, `FactorSeasoning`): when an operator last lifted the user's security hold,
/// written by the lift itself, so a held action reads it with the account's row instead of searching the user's
/// security log on every start and attempt. Filled from the log for lifts made before this column.
struct AddHoldLiftedAt: AsyncMigration {
    static let columns: [Database.AddedColumn] = [(User.schema, "hold_lifted_at", .double)]

    func prepare(on database: any Database) async throws {
        try await database.addColumns(Self.columns)
        try await Self.fillFromSecurityLog(on: database)
    }

    /// Sets each user's `hold_lifted_at` to the time of the last operator's lift in the security log.
    static func fillFromSecurityLog(on database: any Database) async throws {
        try await database.sql.raw(
            """
            UPDATE users SET hold_lifted_at = (
              SELECT MAX(created_at) FROM security_events WHERE security_events.user_id = users.id
                AND type = \(bind: SecurityEventKind.securityHoldEnded.rawValue)
                AND actor = \(bind: AccountFreezing.Actor.operator.rawValue))
            """
        ).run()
    }

    func revert(on database: any Database) async throws {
        try await database.dropColumns(Self.columns)
    }
}
