import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The statements on `identities` (issue 44 §1) that sign-in, linking, the profile and the count of an
/// account's ways to sign in use; the rules around them stay with their callers.
extension IdentityStore {
    /// The identity (provider, subject), on whichever account holds it.
    func identity(of provider: SignInProvider, subject: String, on database: any Database) async throws -> Identity? {
        try await Identity.query(on: database)
            .filter(\.$provider == provider.rawValue).filter(\.$subject == subject).first()
    }

    /// `user`'s identity of `provider`, if it has one.
    func identity(of user: UUID, provider: SignInProvider, on database: any Database) async throws -> Identity? {
        try await Identity.query(on: database).filter(\.$userID == user)
            .filter(\.$provider == provider.rawValue).first()
    }

    /// Adds `identity` (a constraint failure when (provider, subject) or (user, provider) is taken).
    func create(_ identity: Identity, on database: any Database) async throws {
        try await identity.create(on: database)
    }

    /// Removes `identity`.
    func remove(_ identity: Identity, on database: any Database) async throws {
        try await identity.delete(on: database)
    }

    /// Keeps the sealed Apple refresh token and its client id on the Apple identity `subject`.
    func keepAppleRefreshToken(sealed: String, clientID: String, ofApple subject: String, on database: any Database)
        async throws
    {
        try await database.sql.raw(
            """
            UPDATE identities SET apple_refresh_token = \(bind: sealed), apple_client_id = \(bind: clientID)
            WHERE provider = 'apple' AND subject = \(bind: subject)
            """
        ).run()
    }

    /// `user`'s identities, oldest first (a read needs no instance, so `User`'s profile can make it).
    static func all(of user: UUID, on database: any Database) async throws -> [Identity] {
        try await Identity.query(on: database).filter(\.$userID == user).sort(\.$createdAt).all()
    }

    /// How many identities `user` has linked (no instance needed, as for `all(of:on:)`).
    static func count(of user: UUID, on database: any Database) async throws -> Int {
        try await Identity.query(on: database).filter(\.$userID == user).count()
    }
}
