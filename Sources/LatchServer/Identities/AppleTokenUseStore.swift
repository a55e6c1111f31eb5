import Crypto
import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The statements on `apple_token_uses` (issue 44 §1): Apple identity tokens already accepted, by
/// SHA-256 of the token, kept until a while after the token's `exp` (after that the token is refused as
/// expired anyway). One `INSERT … ON CONFLICT DO NOTHING` decides, so two latchd processes sharing a
/// database never both accept one token.
enum AppleTokenUseStore {
    static let schema = "apple_token_uses"
    /// Rows outlive the token's `exp` by this much, covering clock differences between instances.
    static let keptAfterExpiry: Double = 300

    /// Records the first use of `token`; false when it was accepted before.
    static func recordFirstUse(of token: String, expiresAt: Double, now: Double, on database: any Database) async throws
        -> Bool
    {
        let hash = Hex.lowercase(SHA256.hash(data: Data(token.utf8)))
        try await database.sql.raw("DELETE FROM apple_token_uses WHERE forget_after < \(bind: now)").run()
        let inserted = try await database.sql.raw(
            """
            INSERT INTO apple_token_uses (token_hash, forget_after) VALUES (\(bind: hash), \(bind: expiresAt + keptAfterExpiry))
            ON CONFLICT (token_hash) DO NOTHING
            RETURNING token_hash
            """
        ).all()
        return !inserted.isEmpty
    }
}

struct CreateAppleTokenUses: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AppleTokenUseStore.schema)
            .field("token_hash", .string, .identifier(auto: false))
            .field("forget_after", .double, .required)
            .create()
        try await database.createIndex(
            "apple_token_uses_forget_after", on: AppleTokenUseStore.schema, columns: "forget_after")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AppleTokenUseStore.schema).delete()
    }
}
