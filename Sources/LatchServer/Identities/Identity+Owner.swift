import FluentKit
import Foundation
import LatchCore

extension Identity {
    /// The account holding (provider, subject), if any. An identity found on a deleted account (linked
    /// while the account was being deleted) is erased here, so the number or Apple ID can sign up again.
    static func owner(
        of provider: SignInProvider, subject: String, identities: IdentityStore, on database: any Database
    ) async throws -> User? {
        guard let identity = try await identities.identity(of: provider, subject: subject, on: database)
        else { return nil }
        guard let user = try await identities.accounts.user(identity.userID, on: database) else { return nil }
        guard user.deletedAt == nil else {
            try await identities.remove(identity, on: database)
            return nil
        }
        return user
    }
}
