import FluentKit
import Foundation
import SQLKit

/// The statements on `signing_keys` (issue 44 §1): the keys read (all, usable, one, the newest
/// generation), a new generation's conditional insert, and the retirement times written. Which key
/// signs, when to rotate and how a key is made are `SigningKeys`' and `SigningKeyRing`'s.
struct SigningKeyStore: Sendable {
    /// Every stored key, oldest generation first.
    func all(on database: any Database) async throws -> [SigningKeyRecord] {
        try await SigningKeyRecord.query(on: database).sort(\.$generation).sort(\.$id).all()
    }

    /// The keys not retired at `now`, oldest generation first.
    func usable(at now: Double, on database: any Database) async throws -> [SigningKeyRecord] {
        try await SigningKeyRecord.query(on: database)
            .group(.or) { $0.filter(\.$retiresAt == nil).filter(\.$retiresAt > now) }
            .sort(\.$generation).sort(\.$id).all()
    }

    /// The key `kid`, if stored.
    func find(_ kid: String, on database: any Database) async throws -> SigningKeyRecord? {
        try await SigningKeyRecord.find(kid, on: database)
    }

    /// The highest generation stored; nil on an empty table.
    func newestGeneration(on database: any Database) async throws -> Int? {
        let rows = try await database.sql.raw("SELECT MAX(generation) AS newest FROM signing_keys").all()
        return try rows.first.flatMap { try $0.decode(column: "newest", as: Int?.self) }
    }

    /// Inserts key `kid` as generation `generation` unless that generation exists already (one
    /// conditional INSERT); false when another insert made it first.
    func insert(kid: String, sealed: String, generation: Int, now: Double, on database: any Database) async throws
        -> Bool
    {
        let rows = try await database.sql.raw(
            """
            INSERT INTO signing_keys (kid, sealed_private_key, created_at, generation)
            VALUES (\(bind: kid), \(bind: sealed), \(bind: now), \(bind: generation))
            ON CONFLICT (generation) DO NOTHING RETURNING kid
            """
        ).all()
        return !rows.isEmpty
    }

    /// Sets `retiresAt` on every key below `generation` that has none yet (a rotation's superseded keys).
    func retire(below generation: Int, at retiresAt: Double, on database: any Database) async throws {
        try await database.sql.raw(
            """
            UPDATE signing_keys SET retires_at = \(bind: retiresAt)
            WHERE retires_at IS NULL AND generation < \(bind: generation)
            """
        ).run()
    }

    /// Retires key `kid` at `retiresAt` (an operator's `latchd keys retire`).
    func retire(kid: String, at retiresAt: Double, on database: any Database) async throws {
        try await database.sql.raw(
            "UPDATE signing_keys SET retires_at = \(bind: retiresAt) WHERE kid = \(bind: kid)"
        ).run()
    }
}
