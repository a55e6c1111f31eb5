// Issue 28 §3: `LatchClient.send(_:)` (and `authorizedRequest(_:)`, `authorize(_:)`) give the session's
// bearer token only to the client's own server, over https (plain http only to a loopback host).
import Foundation
import LatchCore
import Testing

@testable import LatchClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("The bearer token goes only to the server (issue 28 §3)")
struct TokenDestinationTests {
    static let refused: [(url: String, reason: UntrustedRequestURL.Reason)] = [
        ("https://api.example.com/orders", .otherServer), // another host of the same company
        ("https://auth.example.com.evil.example/orders", .otherServer), // the server's name as a prefix
        ("https://auth.example.com@evil.example/orders", .otherServer), // the server's name as a user name
        ("https://auth.example.com:8443/orders", .otherServer), // another port
        ("http://auth.example.com/orders", .insecure), // the server itself, in clear
        ("ftp://auth.example.com/orders", .insecure),
        ("/orders", .insecure) // no scheme, no host
    ]

    @Test func test_28_3_sendGivesTheTokenOnlyToTheServersOrigin() async throws {
        let harness = SessionHarness()
        try await harness.signIn()

        // Any path of the server, its default port written out, its host in capitals: the same origin.
        for allowed in [
            "https://auth.example.com/orders", "https://auth.example.com:443/orders", "https://AUTH.example.com/orders"
        ] {
            let response = try await harness.client.send(HTTPRequest(method: "GET", url: URL(string: allowed)!))
            #expect(response.status == 200, "\(allowed)")
        }
        #expect(
            await harness.server.requests(to: "/orders").map(SessionFakeServer.bearer(of:)) == ["at-1", "at-1", "at-1"])

        for (url, reason) in Self.refused {
            let request = HTTPRequest(method: "GET", url: URL(string: url)!)

            let error = await #expect(throws: UntrustedRequestURL.self) { try await harness.client.send(request) }

            #expect(error == UntrustedRequestURL(url: URL(string: url)!, serverURL: harness.serverURL, reason: reason))
        }
        // Nothing more reached any host.
        #expect(await harness.server.requests.count == 3)
    }

    @Test func test_28_3_refusedURLIsRefusedBeforeAnyRefresh() async throws {
        // Set-up: 100 s left, so any token read would refresh first.
        let harness = SessionHarness()
        try await harness.signIn(expiresIn: 100)

        // Act
        await #expect(throws: UntrustedRequestURL.self) {
            try await harness.client.send(HTTPRequest(method: "GET", url: URL(string: "https://api.example.com/")!))
        }

        // Check: no refresh, no request.
        #expect(await harness.server.refreshGrants == 0)
        #expect(await harness.server.requests.isEmpty)
    }

    @Test func test_28_3_authorizedRequestAndAuthorizeFollowTheSameRule() async throws {
        let harness = SessionHarness()
        try await harness.signIn()
        let foreign = URL(string: "https://api.example.com/orders")!

        await #expect(throws: UntrustedRequestURL.self) {
            try await harness.client.authorizedRequest(HTTPRequest(method: "GET", url: foreign))
        }
        var urlRequest = URLRequest(url: foreign)
        await #expect(throws: UntrustedRequestURL.self) { try await harness.client.authorize(&urlRequest) }
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == nil)

        // The server's own URL still gets it.
        let own = try await harness.client.authorizedRequest(HTTPRequest(method: "GET", url: harness.ordersURL))
        #expect(own.headers["Authorization"] == "Bearer at-1")
    }

    @Test func test_28_3_loopbackServerGetsTheTokenOverPlainHTTPOnItsOwnPort() async throws {
        let harness = SessionHarness(serverURL: URL(string: "http://127.0.0.1:8080/latch/")!)
        try await harness.signIn()

        // Another path than the prefix the server is mounted at is still the server's origin.
        let response = try await harness.client.send(
            HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:8080/orders")!))

        #expect(response.status == 200)
        for (url, reason) in [
            ("http://127.0.0.1:9090/orders", UntrustedRequestURL.Reason.otherServer),
            ("http://localhost:8080/orders", .otherServer), // another name is another origin
            ("https://127.0.0.1:8080/orders", .otherServer), // another scheme
            ("http://192.168.1.10:8080/orders", .insecure)
        ] {
            let error = await #expect(throws: UntrustedRequestURL.self) {
                try await harness.client.send(HTTPRequest(method: "GET", url: URL(string: url)!))
            }
            #expect(error?.reason == reason, "\(url)")
        }
    }

    @Test func test_28_3_refusalSaysWhereTheTokenMayGo() {
        let server = URL(string: "https://auth.example.com")!
        let other = UntrustedRequestURL(
            url: URL(string: "https://api.example.com/x")!, serverURL: server, reason: .otherServer)
        let clear = UntrustedRequestURL(url: URL(string: "http://a.example/x")!, serverURL: server, reason: .insecure)

        #expect(other.description.contains("https://auth.example.com:443"))
        #expect(other.description.contains("https://api.example.com/x"))
        #expect(other.description.contains("validAccessToken()"))
        #expect(clear.description.contains("https://"))
        #expect(clear.description.contains("http://a.example/x"))
    }
}
