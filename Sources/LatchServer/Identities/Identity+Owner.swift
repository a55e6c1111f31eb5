import FluentKit
import Foundation
import LatchCore

extension Identity {
    /// The account holding (provider, subject), if any. An identity found on a deleted account (linked
    /// while the account was being deleted) is erased here, so the number or Apple ID can sign up again.
    static func owner(
        of provider: SignInProvider, subject: String, accounts: AccountStore, on database: any Database
    ) async throws -> User? {
        guard
            let identity = try await Identity.query(on: database)
                .filter(\.$provider == provider.rawValue).filter(\.$subject == subject).first()
        else { return nil }
        guard let user = try await accounts.user(identity.userID, on: database) else { return nil }
        guard user.deletedAt == nil else {
            try await identity.delete(on: database)
            return nil
        }
        return user
    }
}
