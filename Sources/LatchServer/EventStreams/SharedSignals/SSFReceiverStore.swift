import Crypto
import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The `ssf_receivers` table (issue 42 §2), and the only place with its SQL: the receiver keys an operator
/// made, kept as their SHA-256, each with the audience its streams' SETs carry.
struct SSFReceiverStore: Sendable {
    static let table = "ssf_receivers"

    /// A receiver as listed (never its key).
    struct Listed: Sendable, Equatable, Codable {
        let id: String
        let audience: String
        let description: String?
        let createdAt: Double
    }

    /// Adds a receiver; answers it and its key (`ssfk_` and 43 base64url characters), shown once.
    func add(audience: String, description: String?, now: Double, on database: any Database) async throws
        -> (receiver: SSFReceiver, key: String)
    {
        let key = "ssfk_" + Base64URL.encode(RandomSecrets.bytes(32))
        let id = "ssr_" + Hex.lowercase(RandomSecrets.bytes(12))
        try await database.sql.raw(
            """
            INSERT INTO ssf_receivers (id, key_hash, audience, description, created_at)
            VALUES (\(bind: id), \(bind: Self.hash(key)), \(bind: audience), \(bind: description), \(bind: now))
            """
        ).run()
        return (SSFReceiver(id: id, audience: audience), key)
    }

    /// The receiver whose key is `presented`, or nil. Found by the key's SHA-256 (the key itself is never
    /// stored), then the digests compared in constant time.
    func receiver(presenting presented: String, on database: any Database) async throws -> SSFReceiver? {
        let hash = Self.hash(presented)
        guard
            let row = try await database.sql.raw(
                "SELECT id, key_hash, audience FROM ssf_receivers WHERE key_hash = \(bind: hash)"
            ).first(),
            SecretBox.constantTimeEquals(try row.decode(column: "key_hash", as: String.self), hash)
        else { return nil }
        return SSFReceiver(
            id: try row.decode(column: "id", as: String.self),
            audience: try row.decode(column: "audience", as: String.self))
    }

    func list(on database: any Database) async throws -> [Listed] {
        try await database.sql.raw(
            "SELECT id, audience, description, created_at FROM ssf_receivers ORDER BY created_at, id"
        ).all().map { row in
            Listed(
                id: try row.decode(column: "id", as: String.self),
                audience: try row.decode(column: "audience", as: String.self),
                description: try row.decode(column: "description", as: String?.self),
                createdAt: try row.decode(column: "created_at", as: Double.self))
        }
    }

    /// Removes a receiver's key; answers whether it existed. Its streams stay (an operator removes them).
    @discardableResult
    func remove(_ id: String, on database: any Database) async throws -> Bool {
        !(try await database.sql.raw("DELETE FROM ssf_receivers WHERE id = \(bind: id) RETURNING id").all().isEmpty)
    }

    /// A key's SHA-256, hex.
    static func hash(_ key: String) -> String { SecretBox.hash(key) }
}
