import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The one owner of the `users` table (issue 44 §1): every statement whose subject is an account's row
/// is here or in its `AccountStore+…` extensions (a statement of another table may JOIN `users` to read
/// it, as the refresh does). Services hold the rules and call these; the security reset and the
/// account deletion stay the cross-table scripts they are, through these statements.
///
/// Every write drops the account's `GET /v1/me` profile from this instance's cache, so no writer can
/// leave it stale: the next read loads it afresh. (A read racing an uncommitted write may cache the old
/// row again; it is then as stale as another instance's copy, at most
/// `SessionStatusCache.recheckInterval`.)
struct AccountStore: Sendable {
    let profiles: ProfileCache

    /// The account `id`, deleted ones (tombstones) included.
    func user(_ id: UUID, on database: any Database) async throws -> User? {
        try await User.find(id, on: database)
    }

    /// The account whose address is `email`, if any.
    func user(email: String, on database: any Database) async throws -> User? {
        try await User.query(on: database).filter(\.$email == email).first()
    }

    /// The live account (not a tombstone) whose address is `email`, if any.
    func liveUser(email: String, on database: any Database) async throws -> User? {
        try await User.query(on: database).filter(\.$email == email).filter(\.$deletedAt == nil).first()
    }

    /// The accounts of `ids`, in no order; missing ones are left out.
    func users(_ ids: [UUID], on database: any Database) async throws -> [User] {
        try await User.query(on: database).filter(\.$id ~~ ids).all()
    }

    /// Only the id of `email`'s account: decoding a whole account (about 20 columns) was work an unknown
    /// address skipped (`PasswordService.forgot`).
    func id(ofEmail email: String, on database: any Database) async throws -> UUID? {
        try await database.sql.raw("SELECT id FROM users WHERE email = \(bind: email)").first()?
            .decode(column: "id", as: UUID.self)
    }

    /// Adds a new account.
    func create(_ user: User, on database: any Database) async throws {
        try await user.create(on: database)
        if let id = user.id { profiles.forget(id) }
    }

    /// Writes the fields of a loaded account that a service changed (nickname, settings).
    func save(_ user: User, on database: any Database) async throws {
        try await user.save(on: database)
        if let id = user.id { profiles.forget(id) }
    }

    /// The profile `GET /v1/me` shows, from this instance's cache when fresh; nil when the account is gone.
    func profile(of id: UUID, now: Double, on database: () -> any Database) async throws -> ProfileCache.Profile? {
        if let profile = profiles.rememberedProfile(of: id, now: now) { return profile }
        let db = database()
        guard let user = try await user(id, on: db) else { return nil }
        return try profiles.remember(try await user.profile(on: db), of: id, now: now)
    }

    /// The fresh profile of a just-changed `user`, remembered for the next `GET /v1/me`.
    func freshProfile(of user: User, now: Double, on database: any Database) async throws -> UserInfo {
        let info = try await user.profile(on: database)
        try profiles.remember(info, of: try user.requireID(), now: now)
        return info
    }
}
