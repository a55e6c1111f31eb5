import FluentKit
import Foundation
import SQLKit

/// Whether an account has ever had a session, for the new-device screening (C8, issue 10 §2).
extension SessionStore {
    /// Whether `user` has had any session (revoked and expired ones count: they are never deleted).
    func hasAny(of user: UUID, on database: any Database) async throws -> Bool {
        try await database.sql.raw("SELECT 1 AS found FROM sessions WHERE user_id = \(bind: user) LIMIT 1").first()
            != nil
    }
}
