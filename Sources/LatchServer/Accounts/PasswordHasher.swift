import Crypto
import Foundation
import NIOPosix
import Synchronization
import Vapor

/// bcrypt on a thread pool, never on an event loop.
///
/// bcrypt reads only the first 72 bytes of its input, so a long password would collide with its
/// own prefix. The password is therefore first hashed with SHA-256 and base64-encoded (44 bytes,
/// no NUL), and bcrypt hashes that: every character counts, whatever the length.
final class PasswordHasher: Sendable {
    let cost: Int
    private let pool: NIOThreadPool
    /// A hash of a random password, checked when an account does not exist so the answer takes
    /// the same time as a wrong password.
    private let dummyHash: String
    private let checks = Atomic<Int>(0)

    init(cost: Int, pool: NIOThreadPool) throws {
        self.cost = cost
        self.pool = pool
        self.dummyHash = try Bcrypt.hash(Self.prehash(RandomSecrets.token()), cost: cost)
    }

    /// How many password checks ran since start (tests prove the lockout gate with it).
    var checksPerformed: Int { checks.load(ordering: .relaxed) }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await pool.runIfActive { try Bcrypt.hash(Self.prehash(password), cost: cost) }
    }

    /// Checks `password` against `hash`; with no hash (unknown account) it checks a dummy and fails.
    func verify(_ password: String, against hash: String?) async throws -> Bool {
        checks.add(1, ordering: .relaxed)
        let target = hash ?? dummyHash
        let matches = try await pool.runIfActive { try Bcrypt.verify(Self.prehash(password), created: target) }
        return matches && hash != nil
    }

    static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
