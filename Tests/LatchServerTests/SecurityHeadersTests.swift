import Foundation
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 20 §8: every answer — not only the account page's — says `nosniff` and refuses framing, so a
/// hostile page can neither sniff an API answer into script nor draw latchd inside a frame.
@Suite("Security headers on every answer (issue 20 §8)")
struct SecurityHeadersTests {
    @Test(
        "review_8 every answer of the API listener (JSON, documents, the page, 400/401/404/405/415/422) carries nosniff and refuses framing",
        arguments: TestDatabase.all)
    func test_20_8_everyAnswerRefusesSniffingAndFraming(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.metricsPort = 0 }) { server in
            let tokens = try await server.signUp("bob@example.com")

            let answers: [(String, TestResponse)] = [
                ("health", try await server.send(.GET, "/health")),
                ("jwks", try await server.send(.GET, "/.well-known/jwks.json")),
                ("openapi", try await server.send(.GET, "/openapi.json")),
                ("me", try await server.send(.GET, "/v1/me", bearer: tokens.accessToken)),
                ("page", try await server.send(.GET, "/account")),
                ("401", try await server.send(.GET, "/v1/me")),
                ("404", try await server.send(.GET, "/no/such/path")),
                ("405", try await server.send(.DELETE, "/health")),
                ("400", try await server.send(.POST, "/v1/token", body: "{")),
                ("415", try await server.send(.POST, "/v1/token", body: "x", contentType: "text/plain")),
                ("422", try await server.send(.POST, "/v1/password/forgot", json: ["email": "not an address"]))
            ]

            for (name, answer) in answers {
                #expect(answer.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(name)")
                #expect(answer.headers.first(name: "X-Frame-Options") == "DENY", "\(name)")
                let policy = answer.headers[canonicalForm: "Content-Security-Policy"].joined(separator: ",")
                #expect(policy.contains("frame-ancestors 'none'"), "\(name): \(policy)")
                #expect(answer.headers[canonicalForm: "Content-Security-Policy"].count == 1, "\(name): one policy")
            }
            #expect(Set(answers.map { $0.1.status }) == [200, 400, 401, 404, 405, 415, 422])
            let page = try #require(answers.first { $0.0 == "page" }?.1)
            #expect(
                page.headers.first(name: "Content-Security-Policy") == AccountPageRoutes.contentSecurityPolicy,
                "the page keeps its own strict policy")
            let api = try #require(answers.first { $0.0 == "me" }?.1)
            #expect(api.headers.first(name: "Content-Security-Policy") == "default-src 'none'; frame-ancestors 'none'")

            // The metrics listener (a listener of its own, not the API's router) says the same on its answers.
            let port = try #require(server.app.metricsPort)
            for path in ["/metrics", "/elsewhere"] {
                let metrics = try await TestHTTP.get("http://127.0.0.1:\(port)\(path)")
                #expect(metrics.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(path)")
                #expect(metrics.headers.first(name: "X-Frame-Options") == "DENY", "\(path)")
            }
        }
    }
}
