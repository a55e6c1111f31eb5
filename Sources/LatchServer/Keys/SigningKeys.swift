import Crypto
import Fluent
import Foundation
import JWTKit
import LatchCore

/// The ES256 keys that sign access tokens. Generated on first start and kept (encrypted) in the
/// database, so restarts and other instances sharing the database accept the same tokens.
/// Every instance signs with the oldest key, so instances that start together agree.
struct SigningKeys: Sendable {
    /// The key that signs new tokens.
    let signingKID: String
    /// Every known key, for verification.
    let collection: JWTKeyCollection
    /// The public keys as a JWKS document.
    let jwks: JWKSDocument

    static func loadOrCreate(on database: any Database, secrets: SecretBox, now: Double) async throws -> SigningKeys {
        var records = try await SigningKeyRecord.query(on: database).sort(\.$createdAt).sort(\.$id).all()
        if records.isEmpty {
            let key = P256.Signing.PrivateKey()
            let kid = Base64URL.encode(Data(SHA256.hash(data: key.publicKey.x963Representation)).prefix(12))
            let record = SigningKeyRecord(kid: kid, sealedPrivateKey: try secrets.seal(key.rawRepresentation), createdAt: now)
            try await database.sql.raw("""
                INSERT INTO signing_keys (kid, sealed_private_key, created_at)
                VALUES (\(bind: kid), \(bind: record.sealedPrivateKey), \(bind: now)) ON CONFLICT (kid) DO NOTHING
                """).run()
            records = try await SigningKeyRecord.query(on: database).sort(\.$createdAt).sort(\.$id).all()
        }
        let collection = JWTKeyCollection()
        var keys: [JWKSDocument.Key] = []
        for record in records {
            guard let raw = try? secrets.open(record.sealedPrivateKey) else {
                throw ConfigurationError(
                    "LATCH_SECRET_KEY",
                    "cannot decrypt the signing keys stored in the database: it is not the key they were stored with")
            }
            let key = try P256.Signing.PrivateKey(rawRepresentation: raw)
            let kid = record.id ?? ""
            await collection.add(ecdsa: try ES256PrivateKey(backing: key), kid: JWKIdentifier(string: kid))
            keys.append(JWKSDocument.Key(kid: kid, publicKey: key.publicKey))
        }
        guard let first = records.first?.id else {
            preconditionFailure("a signing key was just inserted or already present")
        }
        return SigningKeys(signingKID: first, collection: collection, jwks: JWKSDocument(keys: keys))
    }
}

/// `GET /.well-known/jwks.json`: the public signing keys (RFC 7517).
struct JWKSDocument: Codable, Sendable {
    struct Key: Codable, Sendable {
        var kty = "EC"
        var crv = "P-256"
        var alg = "ES256"
        var use = "sig"
        var kid: String
        var x: String
        var y: String

        init(kid: String, publicKey: P256.Signing.PublicKey) {
            let raw = publicKey.rawRepresentation
            self.kid = kid
            self.x = Base64URL.encode(raw.prefix(32))
            self.y = Base64URL.encode(raw.suffix(32))
        }
    }

    var keys: [Key]
}
