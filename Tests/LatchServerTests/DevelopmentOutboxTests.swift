import Foundation
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import LatchServer

/// The development outbox exists in development only.
@Suite("Development outbox")
struct DevelopmentOutboxTests {
    @Test("C2 development keeps mail in the outbox, filtered by address", arguments: TestDatabase.all)
    func C2_outboxListsMailInDevelopment(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp("bob@example.com")

            let bobs = try await server.send(.GET, "/dev/outbox?to=BOB@example.com")
            let nobody = try await server.send(.GET, "/dev/outbox?to=carol@example.com")

            let mail = try #require(bobs.jsonArray.first)
            #expect(mail["to"] as? String == "bob@example.com" && mail["channel"] as? String == "email")
            #expect((mail["code"] as? String)?.count == 6 && mail["created_at"] is String)
            #expect(nobody.jsonArray.isEmpty)
        }
    }

    @Test("C2 production has no outbox: GET /dev/outbox is 404", arguments: TestDatabase.all)
    func C2_noOutboxInProduction(database: TestDatabase) async throws {
        let server = try await TestServer.start(database, production: true)
        let response = try await server.send(.GET, "/dev/outbox")
        let health = try await server.send(.GET, "/health")
        try await server.stop()

        #expect(response.status == 404 && response.errorCode == "NOT_FOUND")
        #expect(health.status == 200)
    }

    @Test(
        "test_10 the outbox answers only with ?to=: without it 400 VALIDATION_FAILED naming to",
        arguments: TestDatabase.all)
    func test_10_outboxNeedsAnAddress(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp("bob@example.com")

            let all = try await server.send(.GET, "/dev/outbox")
            let empty = try await server.send(.GET, "/dev/outbox?to=")

            for answer in [all, empty] {
                #expect(answer.status == 400 && answer.errorCode == "VALIDATION_FAILED", "\(answer.text)")
                #expect(answer.errorBody?.field == "to")
                #expect(!answer.text.contains("bob@example.com"))
            }
        }
    }

    @Test(
        "test_10 the outbox answers only loopback peers: any other TCP peer gets 404, whatever X-Forwarded-For says",
        arguments: TestDatabase.all)
    func test_10_outboxAnswersOnlyLoopbackPeers(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp("bob@example.com")

            let fromIPv4 = try await Self.outbox(server, peer: "192.0.2.7")
            let fromIPv6 = try await Self.outbox(server, peer: "2001:db8::7")
            let forged = try await Self.outbox(server, peer: "198.51.100.9", headers: ["X-Forwarded-For": "127.0.0.1"])
            let unknownPeer = try await Self.outbox(server, peer: nil)
            let fromLoopbackIPv4 = try await Self.outbox(server, peer: "127.0.0.1")
            let fromLoopbackIPv6 = try await Self.outbox(server, peer: "::1")

            for answer in [fromIPv4, fromIPv6, forged, unknownPeer] {
                #expect(answer.status == 404, "\(answer.text)")
                #expect(
                    answer.text.contains("NOT_FOUND") && !answer.text.contains("bob@"))
            }
            for answer in [fromLoopbackIPv4, fromLoopbackIPv6] {
                #expect(
                    answer.status == 200 && answer.text.contains("bob@example.com"), "\(answer.text)")
            }
        }
    }

    @Test("test_10 loopback means 127.0.0.0/8 and ::1 (and IPv4-mapped 127/8), parsed strictly")
    func test_10_loopbackAddresses() throws {
        for host in ["127.0.0.1", "127.255.0.9", "::1", "[::1]", "::ffff:127.0.0.1", "localhost", "LOCALHOST"] {
            #expect(LoopbackAddress.isLoopback(host: host), "\(host)")
        }
        for host in [
            "0.0.0.0", "::", "10.0.0.1", "128.0.0.1", "127.example.com", "127.0.0.1.nip.io", "::2", "::ffff:10.0.0.1",
            ""
        ] {
            #expect(!LoopbackAddress.isLoopback(host: host), "\(host)")
        }
        #expect(LoopbackAddress.isLoopback(try SocketAddress(ipAddress: "127.0.0.2", port: 1)))
        #expect(!LoopbackAddress.isLoopback(try SocketAddress(ipAddress: "192.0.2.1", port: 1)))
        #expect(!LoopbackAddress.isLoopback(nil))
    }

    @Test(
        "review_8 the outbox refuses a Host that is not this machine (DNS rebinding): 404, even from a loopback peer",
        arguments: TestDatabase.all)
    func test_20_8_outboxRefusesForeignHost(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp("bob@example.com")

            var refused: [Answer] = []
            for host in [
                "rebound.example", "rebound.example:8080", "127.0.0.1.nip.io:8080", "localhost.evil.example",
                "0.0.0.0:8080", "::1", "[::1]:80x", "127.0.0.1:8080:1", ""
            ] {
                refused.append(try await Self.outbox(server, peer: "127.0.0.1", host: host))
            }
            refused.append(try await Self.outbox(server, peer: "127.0.0.1", host: nil))
            var allowed: [Answer] = []
            for host in ["localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:8080", "[::1]", "[::1]:8080"] {
                allowed.append(try await Self.outbox(server, peer: "127.0.0.1", host: host))
            }
            // Over the real socket too: the test client names 127.0.0.1:PORT; a rebinding page names itself.
            let overSocket = try await server.send(.GET, "/dev/outbox?to=bob@example.com")
            let reboundOverSocket = try await server.send(
                .GET, "/dev/outbox?to=bob@example.com", headers: [("Host", "attacker.example")])

            for answer in refused {
                #expect(answer.status == 404, "\(answer.text)")
                #expect(!answer.text.contains("bob@example.com"))
            }
            for answer in allowed {
                #expect(answer.status == 200 && answer.text.contains("bob@example.com"))
            }
            #expect(reboundOverSocket.status == 404 && !reboundOverSocket.text.contains("bob@example.com"))
            #expect(overSocket.status == 200 && overSocket.text.contains("bob@example.com"))
        }
    }

    /// `GET /dev/outbox?to=bob@example.com` through the app's whole middleware chain, as if sent by `peer`
    /// naming `host` in its `Host` header (nil: no `Host` header at all).
    static func outbox(
        _ server: TestServer, peer: String?, host: String? = "localhost", headers: [String: String] = [:]
    ) async throws -> Answer {
        let answer = try await server.inProcess.get(
            "/dev/outbox?to=bob@example.com", peer: try peer.map { try SocketAddress(ipAddress: $0, port: 50_000) },
            host: host, headers: headers.map { ($0.key, $0.value) })
        return Answer(status: answer.status, text: answer.text)
    }

    /// An in-process answer.
    struct Answer {
        let status: Int
        let text: String
    }
}
