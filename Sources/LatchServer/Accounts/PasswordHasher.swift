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
/// (hummingbird-auth's `HummingbirdBcrypt`, issue 29 §2); `PasswordHashCompatibilityTests` keeps the older
/// ones verifying.
final class PasswordHasher: Sendable {
    let cost: Int
    private let pool: NIOThreadPool
    /// A hash of a random password, checked when an account does not exist so the answer takes
    /// the same time as a wrong password.
    private let dummyHash: String
    private let checks = Atomic<Int>(0)
    /// How long one bcrypt check takes on this machine, in nanoseconds of its thread (not its wait): a
    /// moving mean of the checks, first the dummy hash's making. A wrong password against an imported hash
    /// is padded up to it (`verifyImported`).
    private let bcryptNanoseconds: Atomic<Int64>
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
        let started = ContinuousClock.now
        self.dummyHash = Bcrypt.hash(Self.prehash(RandomSecrets.token()), cost: UInt8(cost))
        self.bcryptNanoseconds = Atomic(Self.nanoseconds(ContinuousClock.now - started))
    }

    /// The time one bcrypt check takes here now (`bcryptNanoseconds`).
    var bcryptCheckTime: Duration { .nanoseconds(bcryptNanoseconds.load(ordering: .relaxed)) }

    /// Adds one bcrypt check's time to the moving mean (a weight of 1/8: a few checks move it, one does not).
    private func observeBcrypt(_ time: Duration) {
        let mean = bcryptNanoseconds.load(ordering: .relaxed)
        bcryptNanoseconds.store(mean + (Self.nanoseconds(time) - mean) / 8, ordering: .relaxed)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
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
        let (matches, time) = try await withPlace {
            checks.add(1, ordering: .relaxed)
            return try await pool.runIfActive {
                let started = ContinuousClock.now
                return (Bcrypt.verify(Self.prehash(password), hash: target), ContinuousClock.now - started)
            }
        }
        observeBcrypt(time)
        return matches && hash != nil
    }

    /// Checks `password` against an imported hash (issue 45 §2), on the pool behind a place like bcrypt,
    /// then waits (holding the place, not a thread) until a bcrypt check's time has passed: a wrong password
    /// against an imported account takes what one against an unknown address takes, the dummy bcrypt's time,
    /// or the format's own when that is longer (docs/IMPORT.md, docs/PERFORMANCE.md). `padded: false` does
    /// not wait (an imported recovery code, whose account is already known).
    func verifyImported(_ password: String, against hash: ImportedPasswordHash, padded: Bool = true) async throws
        -> Bool
    {
        try await withPlace {
            checks.add(1, ordering: .relaxed)
            let (matches, time) = try await pool.runIfActive {
                let started = ContinuousClock.now
                return (hash.verify(password), ContinuousClock.now - started)
            }
            let padding = bcryptCheckTime - time
            if padded, padding > .zero { try? await Task.sleep(for: padding) }
            return matches
        }
    }

    static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
