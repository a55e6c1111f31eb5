import Crypto
import FluentKit
import Foundation
import JWTKit
import LatchCore

/// The ES256 keys that sign and verify access tokens, as read from `signing_keys` at one moment.
///
/// The key with the highest `generation` signs. Older keys verify until their `retires_at` (set by
/// the rotation that superseded them: by then every token they signed has expired), then they are
/// retired: out of the JWKS and refused. The private halves are stored encrypted under
/// `LATCH_SECRET_KEY`, so every instance sharing the database signs and verifies alike.
/// `SigningKeyRing` keeps the current snapshot, reloads it and rotates.
struct SigningKeys: Sendable {
    /// One usable key.
    struct Entry: Sendable, Equatable {
        let kid: String
        let generation: Int
        let createdAt: Double
        /// When it stops verifying (nil: it is the signer, or was until a rotation it has not heard of).
        let retiresAt: Double?
        let publicKey: JWKSDocument.Key

        func isRetired(at now: Double) -> Bool { retiresAt.map { $0 <= now } ?? false }
    }

    /// The key that signs new tokens.
    let signingKID: String
    /// The signer's entry (its age decides automatic rotation).
    let signer: Entry
    /// Every key not yet retired when read, for verification.
    let collection: JWTKeyCollection
    /// The keys in `collection`, signer last.
    let entries: [Entry]
    /// Signs new access tokens with the signer's private key, without `collection`'s actor (issue 44 §4).
    let accessTokenSigner: AccessTokenSigner

    /// The public keys not retired at `now`, as a JWKS document.
    func jwks(now: Double) -> JWKSDocument {
        JWKSDocument(keys: entries.filter { !$0.isRetired(at: now) }.map(\.publicKey))
    }

    /// Whether `kid` is a key of this snapshot that has not retired at `now`.
    func verifies(kid: String, now: Double) -> Bool {
        entries.contains { $0.kid == kid && !$0.isRetired(at: now) }
    }

    /// What identifies the snapshot's contents: a reload that reads the same rows keeps the snapshot.
    var fingerprint: [String] { entries.map { "\($0.kid) \($0.generation) \($0.retiresAt ?? -1)" } }

    /// Reads the keys (creating the first one on a new database). Keys retired at `now` are left out.
    static func load(on database: any Database, secrets: SecretBox, now: Double) async throws -> SigningKeys {
        var records = try await usableRecords(on: database, now: now)
        if records.isEmpty {
            // Generation 1 is unique: instances starting together on a new database make one key.
            try await insertKey(generation: 1, secrets: secrets, now: now, on: database)
            records = try await usableRecords(on: database, now: now)
        }
        let collection = JWTKeyCollection()
        var entries: [Entry] = []
        var signingKey: P256.Signing.PrivateKey?
        for record in records {
            guard let raw = try? secrets.open(record.sealedPrivateKey) else {
                throw ConfigurationError(
                    "LATCH_SECRET_KEY",
                    "cannot decrypt the signing keys stored in the database: it is not the key they were stored with")
            }
            let key = try P256.Signing.PrivateKey(rawRepresentation: raw)
            let kid = record.id ?? ""
            signingKey = key
            await collection.add(ecdsa: try ES256PrivateKey(backing: key), kid: JWKIdentifier(string: kid))
            entries.append(
                Entry(
                    kid: kid, generation: record.generation ?? 0, createdAt: record.createdAt,
                    retiresAt: record.retiresAt,
                    publicKey: JWKSDocument.Key(kid: kid, publicKey: key.publicKey)))
        }
        guard let signer = entries.last, let signingKey else {
            preconditionFailure("a signing key was just inserted or already present, and the newest never retires")
        }
        return SigningKeys(
            signingKID: signer.kid, signer: signer, collection: collection, entries: entries,
            accessTokenSigner: AccessTokenSigner(kid: signer.kid, key: signingKey))
    }

    /// The rows of keys not retired at `now`, oldest generation first.
    static func usableRecords(on database: any Database, now: Double) async throws -> [SigningKeyRecord] {
        try await SigningKeyStore().usable(at: now, on: database)
    }

    /// Adds a new key as generation `generation` unless that generation exists already (another
    /// instance made it first): one conditional INSERT. Returns its kid, or nil when it lost.
    @discardableResult
    static func insertKey(generation: Int, secrets: SecretBox, now: Double, on database: any Database) async throws
        -> String?
    {
        let key = P256.Signing.PrivateKey()
        let kid = Base64URL.encode(Data(SHA256.hash(data: key.publicKey.x963Representation)).prefix(12))
        let sealed = try secrets.seal(key.rawRepresentation)
        let inserted = try await SigningKeyStore().insert(
            kid: kid, sealed: sealed, generation: generation, now: now, on: database)
        return inserted ? kid : nil
    }
}

/// `GET /.well-known/jwks.json`: the public signing keys (RFC 7517).
struct JWKSDocument: Codable, Sendable, Equatable {
    struct Key: Codable, Sendable, Equatable {
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
