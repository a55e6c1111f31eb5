import FluentKit
import Foundation

/// How many recovery codes an account has left (`RecoveryCodeStore`), for the export and the security
/// settings.
extension RecoveryCodeStore {
    /// How many of `user`'s recovery codes are unused.
    func unusedCount(of user: UUID, on database: any Database) async throws -> Int {
        try await RecoveryCodeRecord.query(on: database).filter(\.$userID == user).filter(\.$usedAt == nil).count()
    }
}
