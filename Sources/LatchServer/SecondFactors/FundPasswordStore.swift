import FluentKit
import Foundation

/// The statements on `fund_passwords` (issue 44 §1): a user's fund password read, written and removed.
struct FundPasswordStore: Sendable {
    /// `user`'s fund password, if one is set.
    func find(of user: UUID, on database: any Database) async throws -> FundPassword? {
        try await FundPassword.find(user, on: database)
    }

    /// Writes `fundPassword` (the first one, or a change of a loaded one): a constraint failure when a
    /// concurrent first one was written before.
    func save(_ fundPassword: FundPassword, on database: any Database) async throws {
        try await fundPassword.save(on: database)
    }

    /// Removes `fundPassword` (an operator's reset).
    func remove(_ fundPassword: FundPassword, on database: any Database) async throws {
        try await fundPassword.delete(on: database)
    }
}
