import Foundation
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// Secrets at rest and in transit: tokens are never cacheable, keys are useless without LATCH_SECRET_KEY.
@Suite("Secret handling (C5)")
struct SecretHandlingTests {
    @Test("C5 answers that carry tokens are marked Cache-Control: no-store", arguments: TestDatabase.all)
    func C5_tokenAnswersAreNotCacheable(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()

            let signIn = try await server.signIn()
            let token = try signIn.decode(TokenResponseShape.self).access_token
            let me = try await server.send(.GET, "/v1/me", bearer: token)
            // The rule follows the route a request matched, not the URL's text (issue 21).
            let doubledSlash = try await server.send(.GET, "//v1/me", bearer: token)
            let unknown = try await server.send(.GET, "/v1/nothing-here")

            #expect(signIn.headers.first(name: "Cache-Control") == "no-store")
            #expect(me.headers.first(name: "Cache-Control") == "no-store")
            #expect(doubledSlash.status == 200, "\(doubledSlash.text)")
            #expect(doubledSlash.headers.first(name: "Cache-Control") == "no-store")
            #expect(unknown.status == 404 && unknown.headers.first(name: "Cache-Control") == "no-store")
        }
    }

    @Test(
        "C5 a database opened with another LATCH_SECRET_KEY fails with a line naming the variable",
        arguments: TestDatabase.all)
    func C5_wrongSecretKeyIsAConfigurationError(database: TestDatabase) async throws {
        let first = try await TestServer.start(database)
        let location = first.location
        try await first.stop()

        await #expect(throws: ConfigurationError.self) {
            let second = try await TestServer.start(
                database, sharing: location, secretKey: Data(repeating: 9, count: 32))
            try await second.stop()
        }
        do {
            _ = try await TestServer.start(database, sharing: location, secretKey: Data(repeating: 9, count: 32))
        } catch let error as ConfigurationError {
            #expect(error.variable == "LATCH_SECRET_KEY")
        }
    }
}

private struct TokenResponseShape: Decodable { let access_token: String }
