import Foundation
import NIOPosix
import Testing
import Vapor

@testable import LatchServer

/// Issue 29 §2: bcrypt moved from Vapor's `Bcrypt` to hummingbird-auth's `HummingbirdBcrypt`; every
/// password and fund password hash stored before must still verify.
@Suite("Issue 29 §2: password hashes stay compatible")
struct PasswordHashCompatibilityTests {
    @Test(
        "29 §2 bcrypt stays compatible: a $2b$ hash stored before the move verifies (made by Python's bcrypt, and by Vapor's while it is linked), a wrong password does not, and new hashes are $2b$ that Vapor's bcrypt accepts"
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

        let byVapor = try Bcrypt.hash(PasswordHasher.prehash("Correct-Horse-9"), cost: 4)
        #expect(try await hasher.verify("Correct-Horse-9", against: byVapor))
        let new = try await hasher.hash("Correct-Horse-9")
        #expect(new.hasPrefix("$2b$04$"), "\(new)")
        #expect(try Bcrypt.verify(PasswordHasher.prehash("Correct-Horse-9"), created: new))
        try await pool.shutdownGracefully()
    }
}
