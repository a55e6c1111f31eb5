import Crypto
import Foundation
import HummingbirdBcrypt
import NIOCore
import NIOPosix
import Synchronization

/// bcrypt on a thread pool, never on an event loop, behind a bounded queue.
///
/// At most `queueLimit` checks and hashes run or wait at once; one more is refused at once with
/// 429 (`retry_after` 1) instead of joining a queue whose wait only grows under a sign-in storm.
/// A caller that must not start its work unless bcrypt will take it (a guarded password check,
/// whose attempt counts) holds a place for the whole of it with `withPlace(_:)`.
///
/// bcrypt reads only the first 72 bytes of its input, so a long password would collide with its
/// own prefix. The password is therefore first hashed with SHA-256 and base64-encoded (44 bytes,
/// no NUL), and bcrypt hashes that: every character counts, whatever the length. The hashes are `$2b$`
/// (hummingbird-auth's `HummingbirdBcrypt`, issue 29 §2), as Vapor's Bcrypt made them before.
final class PasswordHasher: Sendable {
    let cost: Int
    private let pool: NIOThreadPool
    /// A hash of a random password, checked when an account does not exist so the answer takes
    /// the same time as a wrong password.
    private let dummyHash: String
    private let checks = Atomic<Int>(0)
    /// Places in the queue: checks and hashes running or waiting for a thread.
    let queueLimit: Int
    private let placesTaken = Atomic<Int>(0)
    private let refusals = Atomic<Int>(0)
    /// Whether the current task already holds a place (taken by `withPlace`).
    @TaskLocal private static var holdsPlace = false

    init(cost: Int, pool: NIOThreadPool, queueLimit: Int = 4 * System.coreCount) throws {
        self.cost = cost
        self.pool = pool
        self.queueLimit = max(1, queueLimit)
        self.dummyHash = Bcrypt.hash(Self.prehash(RandomSecrets.token()), cost: UInt8(cost))
    }

    /// How many password checks ran since start (tests prove the lockout gate with it).
    var checksPerformed: Int { checks.load(ordering: .relaxed) }

    /// Places taken now: checks and hashes running or waiting (the metrics' bcrypt queue depth).
    var placesInUse: Int { min(queueLimit, placesTaken.load(ordering: .relaxed)) }

    /// How many checks or hashes were refused because the queue was full.
    var queueRefusals: Int { refusals.load(ordering: .relaxed) }

    /// Runs `work` holding one place in the queue, so the bcrypt work inside it is never refused;
    /// throws 429 RATE_LIMITED (`retry_after` 1) at once, without running `work`, when the queue is full.
    func withPlace<T>(_ work: () async throws -> T) async throws -> T {
        if Self.holdsPlace { return try await work() }
        let taken = placesTaken.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        defer { placesTaken.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        guard taken <= queueLimit else {
            refusals.add(1, ordering: .relaxed)
            throw LatchError.rateLimited(retryAfter: 1)
        }
        return try await Self.$holdsPlace.withValue(true) { try await work() }
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await withPlace {
            try await pool.runIfActive { Bcrypt.hash(Self.prehash(password), cost: UInt8(cost)) }
        }
    }

    /// Checks `password` against `hash`; with no hash (unknown account) it checks a dummy and fails. A hash
    /// another system made (`ImportedPasswordHash.columnPrefix`, issue 45 §2) is checked in its own format.
    func verify(_ password: String, against hash: String?) async throws -> Bool {
        if let hash, let imported = ImportedPasswordHash.inColumn(hash) {
            return try await verifyImported(password, against: imported)
        }
        let target = hash ?? dummyHash
        let matches = try await withPlace {
            checks.add(1, ordering: .relaxed)
            return try await pool.runIfActive { Bcrypt.verify(Self.prehash(password), hash: target) }
        }
        return matches && hash != nil
    }

    /// Checks `password` against an imported hash (issue 45 §2), on the pool behind a place like bcrypt:
    /// the dummy bcrypt first, so a wrong password against an imported account never answers faster than
    /// one against an unknown address; the difference is the imported format's own cost (docs/IMPORT.md).
    /// `padded: false` skips the dummy (an imported recovery code, whose account is already known).
    func verifyImported(_ password: String, against hash: ImportedPasswordHash, padded: Bool = true) async throws
        -> Bool
    {
        let dummy = dummyHash
        return try await withPlace {
            checks.add(1, ordering: .relaxed)
            return try await pool.runIfActive {
                if padded { _ = Bcrypt.verify(Self.prehash(password), hash: dummy) }
                return hash.verify(password)
            }
        }
    }

    static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
