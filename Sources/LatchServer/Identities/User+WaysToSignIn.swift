import FluentKit
import Foundation

extension User {
    /// The number of ways the account can sign in: its email (with its password), its linked identities
    /// (Apple, WeChat, phone) and its passkeys. The last one is never removed.
    func waysToSignIn(on database: any Database) async throws -> Int {
        let userID = try requireID()
        let identities = try await IdentityStore.count(of: userID, on: database)
        let passkeys = try await PasskeyStore.count(of: userID, on: database)
        return identities + passkeys + (email == nil ? 0 : 1)
    }

    /// `waysToSignIn(on:)` of account `user`; 0 when there is no such account.
    static func waysToSignIn(of user: UUID, accounts: AccountStore, on database: any Database) async throws -> Int {
        try await accounts.user(user, on: database)?.waysToSignIn(on: database) ?? 0
    }
}
