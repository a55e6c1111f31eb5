import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@testable import LatchServer

/// Issue 29 §2: bcrypt is hummingbird-auth's `HummingbirdBcrypt`; every password and fund password hash
/// stored by an earlier bcrypt must still verify.
@Suite("Issue 29 §2: password hashes stay compatible")
struct PasswordHashCompatibilityTests {
    @Test(
        "29 §2 bcrypt stays compatible: a $2b$ hash stored before the move verifies (made by Python's bcrypt), a wrong password does not, and new hashes are $2b$"
    )
    func test_29_2_bcryptHashesStayCompatible() async throws {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let hasher = try PasswordHasher(cost: 4, pool: pool)
        // Python's bcrypt (cost 4) over the SHA-256 prehash of "Correct-Horse-9".
        let stored = "$2b$04$0ug22KFuW6uV4pvMuCNWauWQearfn9N3sBbqlZ38x38HIlxoIGiCq"
        #expect(PasswordHasher.prehash("Correct-Horse-9") == "mNSmGiGi0m2n+durdVDbYyn6k2IiYFUTPoEK7t5fViI=")
        #expect(try await hasher.verify("Correct-Horse-9", against: stored))
        #expect(!(try await hasher.verify("Correct-Horse-8", against: stored)))

        let new = try await hasher.hash("Correct-Horse-9")
        #expect(new.hasPrefix("$2b$04$"), "\(new)")
        try await pool.shutdownGracefully()
    }
}
