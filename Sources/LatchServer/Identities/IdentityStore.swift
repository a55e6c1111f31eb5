import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The account's linked sign-in identities (Apple, WeChat, phone; C1) and its email as a way to sign
/// in: linking one, and unlinking one unless it is the account's last way to sign in.
struct IdentityStore: Sendable {
    /// The owner of `users`: an unlinked address leaves the account's row there.
    let accounts: AccountStore

    /// Links the identity `proven` to `user`; 409 CONFLICT (`field` `provider`) when it belongs to an
    /// account already (`already_linked`, `identity_in_use`) or the account has one of that provider
    /// (`provider_already_linked`, also when a concurrent link won).
    func link(_ proven: ProvenIdentity, to user: UUID, by session: UUID? = nil, now: Double, on database: any Database)
        async throws
    {
        if let owner = try await Identity.owner(
            of: proven.provider, subject: proven.subject, identities: self, on: database)
        {
            let reason = owner.id == user ? "already_linked" : "identity_in_use"
            throw LatchError(.conflict, field: "provider", reasons: [reason])
        }
        do {
            let identity = Identity(
                userID: user, provider: proven.provider, subject: proven.subject, email: proven.email, createdAt: now)
            try await identity.create(on: database)
            if let session, let id = identity.id {
                try await database.sql.raw("UPDATE identities SET session_id = \(bind: session) WHERE id = \(bind: id)")
                    .run()
            }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw LatchError(.conflict, field: "provider", reasons: ["provider_already_linked"])
        }
    }

    /// What unlinking did.
    enum UnlinkOutcome {
        /// Removed; an Apple identity's sealed refresh token comes along, to revoke it.
        case removed(appleRefreshToken: String?, appleClientID: String?)
        /// Refused: it is the account's last way to sign in.
        case last
        /// The account has no such way to sign in.
        case notFound
    }

    /// Unlinks `provider` from `user`, unless it is the account's last way to sign in
    /// (`User.waysToSignIn`).
    func unlink(_ provider: SignInProvider, of userID: UUID, on database: any Database) async throws -> UnlinkOutcome {
        try await database.tracedTransaction { database in
            // Unlinks and passkey removals of one account queue, so two at once cannot remove the last
            // two ways together.
            try await database.lockUserRow(userID)
            guard let user = try await accounts.user(userID, on: database) else { return .notFound }
            switch provider {
            case .email:
                guard user.email != nil else { return .notFound }
                guard try await user.waysToSignIn(on: database) > 1 else { return .last }
                // The address is remembered (`previous_email`) so it hears of the next one added (issue 28 §2).
                try await accounts.unlinkEmail(of: userID, on: database)
                return .removed(appleRefreshToken: nil, appleClientID: nil)
            case .apple, .wechat, .phone:
                guard let identity = try await identity(of: userID, provider: provider, on: database)
                else { return .notFound }
                guard try await user.waysToSignIn(on: database) > 1 else { return .last }
                try await identity.delete(on: database)
                return .removed(appleRefreshToken: identity.appleRefreshToken, appleClientID: identity.appleClientID)
            }
        }
    }
}
