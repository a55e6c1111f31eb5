import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 20 §10: `latchd keys retire KID` ends a compromised signing key at once — out of the JWKS,
/// and its tokens refused even where an instance had already verified and remembered them.
@Suite("Retiring a signing key (issue 20 §10)")
struct KeyRetirementTests {
    @Test(
        "review_10 retiring the signer: a new key signs, the old one leaves the JWKS and its remembered tokens are refused",
        arguments: TestDatabase.all)
    func test_20_10_retireEndsTheKeyAtOnce(database: TestDatabase) async throws {
        let clock = TestClock()
        try await withServer(database, clock: clock, adjust: { $0.keyReloadInterval = .seconds(3600) }) { server in
            let alice = try await server.signUp()
            let leaked = try SigningKeyRotationTests.kid(alice.accessToken)
            // Verified once: this instance remembers the token.
            #expect(try await server.send(.GET, "/v1/me", bearer: alice.accessToken).status == 200)

            let successor = try await SigningKeyCommands.retire(server.app, kid: leaked, now: clock.now)
            // What every instance does within its reload interval.
            try await server.app.latch.accessTokens.ring.reload()

            let remembered = try await server.send(.GET, "/v1/me", bearer: alice.accessToken)
            let published = try await SigningKeyRotationTests.publishedKIDs(server)
            let fresh = try await server.signIn().decode(TokenResponse.self)
            let listed = try await SigningKeyCommands.list(server.app, now: clock.now)

            #expect(successor != nil && successor != leaked)
            #expect(remembered.status == 401, "the remembered token dies with its key: \(remembered.text)")
            #expect(published == [try #require(successor)], "the JWKS has only the new key")
            #expect(try SigningKeyRotationTests.kid(fresh.accessToken) == successor)
            #expect(try await server.send(.GET, "/v1/me", bearer: fresh.accessToken).status == 200)
            #expect(listed.first { $0.kid == leaked }?.role == .retired)
        }
    }

    @Test(
        "review_10 retiring a key that only verifies leaves the signer alone; an unknown kid is an error",
        arguments: TestDatabase.all)
    func test_20_10_retireAVerifyingKey(database: TestDatabase) async throws {
        let clock = TestClock()
        try await withServer(database, clock: clock, adjust: { $0.keyReloadInterval = .seconds(3600) }) { server in
            let alice = try await server.signUp()
            let old = try SigningKeyRotationTests.kid(alice.accessToken)
            let signer = try await SigningKeyCommands.rotate(server.app, now: clock.now)
            try await server.app.latch.accessTokens.ring.reload()
            #expect(try await server.send(.GET, "/v1/me", bearer: alice.accessToken).status == 200, "still verifies")

            let successor = try await SigningKeyCommands.retire(server.app, kid: old, now: clock.now)
            try await server.app.latch.accessTokens.ring.reload()

            #expect(successor == nil, "the signer stays")
            #expect(try await server.send(.GET, "/v1/me", bearer: alice.accessToken).status == 401)
            #expect(try await SigningKeyRotationTests.publishedKIDs(server) == [signer])
            await #expect(throws: SigningKeyCommands.KeyNotFound.self) {
                try await SigningKeyCommands.retire(server.app, kid: "no-such-kid", now: clock.now)
            }
        }
    }
}
