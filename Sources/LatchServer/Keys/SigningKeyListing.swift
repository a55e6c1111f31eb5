import FluentKit
import Foundation

/// One row of `latchd keys list`.
public struct SigningKeyListing: Sendable, Equatable {
    /// What a key does now.
    public enum Role: String, Sendable {
        /// It signs new access tokens (the newest generation).
        case signing
        /// Superseded: it still verifies the tokens it signed, until `retiresAt`.
        case verifying
        /// Every token it signed has expired: out of the JWKS, refused.
        case retired
    }

    public let kid: String
    public let generation: Int
    public let createdAt: Date
    public let role: Role
    /// When it stops (or stopped) verifying; nil for the signer.
    public let retiresAt: Date?
}

/// The operator's side of signing-key rotation (`latchd keys list|rotate`), on a `LatchApplication` (with
/// `runsBackgroundTasks` off, for a command).
public enum SigningKeyCommands {
    /// Every stored key, oldest first, with its role at `now`.
    public static func list(_ app: LatchApplication, now: Date = Date()) async throws -> [SigningKeyListing] {
        let records = try await SigningKeyStore().all(on: app.db)
        let newest = records.compactMap(\.generation).max()
        let seconds = now.timeIntervalSince1970
        return records.map { record in
            let role: SigningKeyListing.Role =
                if record.generation == newest {
                    .signing
                } else if let retiresAt = record.retiresAt, retiresAt <= seconds { .retired } else { .verifying }
            return SigningKeyListing(
                kid: record.id ?? "", generation: record.generation ?? 0,
                createdAt: Date(timeIntervalSince1970: record.createdAt), role: role,
                retiresAt: record.retiresAt.map { Date(timeIntervalSince1970: $0) })
        }
    }

    /// Ends key `kid` now (issue 20 §10: a key that leaked): it leaves the JWKS and stops verifying —
    /// also tokens an instance had already verified and remembered — on every instance as soon as it
    /// reads the keys again (within its reload interval, 5 s). When `kid` signs, a new key takes over
    /// first (returned); the other keys are left as they are. Throws `KeyNotFound` for an unknown kid.
    @discardableResult
    public static func retire(_ app: LatchApplication, kid: String, now: Date = Date()) async throws -> String? {
        let seconds = now.timeIntervalSince1970
        let store = SigningKeyStore()
        guard let record = try await store.find(kid, on: app.db) else { throw KeyNotFound(kid: kid) }
        let newest = try await store.newestGeneration(on: app.db)
        var successor: String?
        if record.generation == newest {
            successor = try await SigningKeyRing.rotateNow(secrets: app.latch.secrets, now: seconds, on: app.db)
        }
        try await store.retire(kid: kid, at: seconds, on: app.db)
        return successor
    }

    /// `retire` was given a kid no stored key has.
    public struct KeyNotFound: Error, CustomStringConvertible {
        public let kid: String
        public var description: String { "no signing key has kid \(kid) (see latchd keys list)" }
    }

    /// Makes a new key the signer at once (every instance signs with it within its key reload
    /// interval, 5 s); the previous ones keep verifying for 2 h 5 min. Returns the new kid.
    public static func rotate(_ app: LatchApplication, now: Date = Date()) async throws -> String {
        try await SigningKeyRing.rotateNow(secrets: app.latch.secrets, now: now.timeIntervalSince1970, on: app.db)
    }
}
