import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// Issue 10 §3: who the client is. The hand-written address parser and CIDR matcher (IPv4, IPv6,
/// IPv4-mapped, malformed input), `LATCH_TRUSTED_PROXIES`, and `X-Forwarded-For` believed only
/// from a trusted proxy, read from the right.
@Suite("Client addresses and trusted proxies (issue 10 §3)")
struct ClientAddressTests {
    @Test("issue 10 §3: IPv4 and IPv6 addresses parse to their bytes; IPv4-mapped IPv6 unmaps to IPv4")
    func test_10_addressesParse() throws {
        #expect(IPAddress("203.0.113.7")?.bytes == [203, 0, 113, 7])
        #expect(IPAddress("0.0.0.0")?.bytes == [0, 0, 0, 0])
        #expect(IPAddress("255.255.255.255")?.bytes == [255, 255, 255, 255])
        #expect(IPAddress("::")?.bytes == [UInt8](repeating: 0, count: 16))
        #expect(IPAddress("::1")?.bytes == [UInt8](repeating: 0, count: 15) + [1])
        #expect(IPAddress("2001:db8::1")?.bytes == [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1])
        #expect(IPAddress("2001:DB8:0:0:0:0:0:1") == IPAddress("2001:db8::1"))
        #expect(IPAddress("1:2:3:4:5:6:7::") == IPAddress("1:2:3:4:5:6:7:0"))
        #expect(IPAddress("::2:3:4:5:6:7:8") == IPAddress("0:2:3:4:5:6:7:8"))
        let mapped = try #require(IPAddress("::ffff:203.0.113.7"))
        #expect(!mapped.isIPv4 && mapped.unmapped == IPAddress("203.0.113.7"))
        #expect(IPAddress("::ffff:cb00:7107")?.unmapped == IPAddress("203.0.113.7"))
        #expect(
            IPAddress("64:ff9b::203.0.113.7")?.unmapped == IPAddress("64:ff9b::cb00:7107"),
            "only ::ffff:0:0/96 is mapped")
    }

    @Test(
        "issue 10 §3: malformed addresses are refused, not guessed at",
        arguments: [
            "", " ", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.-4", "01.2.3.4", "1.2.3.4 ", "1..2.3", "a.b.c.d",
            "１.2.3.4",
            ":", ":::", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "12345::", "g::1", "::1%eth0", "[::1]",
            ":1:2:3:4:5:6:7",
            "1:2:3:4:5:6:7:8::", "::ffff:1.2.3", "::1.2.3.4:5", "1.2.3.4/8", "localhost", "２００１:db8::1"
        ])
    func test_10_malformedAddressesAreRefused(text: String) {
        #expect(IPAddress(text) == nil, "\(text)")
    }

    @Test("issue 10 §3: CIDR blocks match the addresses they hold (IPv4, IPv6, mapped), and only those")
    func test_10_cidrMatching() throws {
        let ten = try #require(CIDRBlock("10.0.0.0/8"))
        #expect(ten.contains(IPAddress("10.255.1.2")!))
        #expect(!ten.contains(IPAddress("11.0.0.1")!))
        #expect(ten.contains(IPAddress("::ffff:10.1.2.3")!), "an IPv4 peer on a dual-stack socket")
        #expect(!ten.contains(IPAddress("::a01:203")!), "an IPv4-compatible (not mapped) address is IPv6")
        let odd = try #require(CIDRBlock("192.168.4.0/22"))
        #expect(odd.contains(IPAddress("192.168.7.255")!) && !odd.contains(IPAddress("192.168.8.0")!))
        let six = try #require(CIDRBlock("2001:db8:abcd::/48"))
        #expect(six.contains(IPAddress("2001:db8:abcd:ffff::1")!))
        #expect(!six.contains(IPAddress("2001:db8:abce::1")!))
        #expect(!six.contains(IPAddress("10.0.0.1")!), "families never match each other")
        #expect(CIDRBlock("0.0.0.0/0")!.contains(IPAddress("198.51.100.1")!))
        #expect(!CIDRBlock("0.0.0.0/0")!.contains(IPAddress("2001:db8::1")!))
        #expect(CIDRBlock("::/0")!.contains(IPAddress("2001:db8::1")!))
        let single = try #require(CIDRBlock("203.0.113.7"))
        #expect(
            single.prefixLength == 32 && single.contains(IPAddress("203.0.113.7")!)
                && !single.contains(IPAddress("203.0.113.8")!))
        let mappedBlock = try #require(CIDRBlock("::ffff:10.0.0.0/104"))
        #expect(mappedBlock == ten, "a mapped block is the IPv4 block it stands for")
        #expect(
            CIDRBlock("fe80::/10")!.contains(IPAddress("febf::1")!)
                && !CIDRBlock("fe80::/10")!.contains(IPAddress("fec0::1")!))
    }

    @Test(
        "issue 10 §3: malformed CIDRs are refused (bad prefix, host bits set, junk)",
        arguments: [
            "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8", "10.0.0.1/8", "2001:db8::/129", "2001:db8::1/32",
            "/8", "10.0.0.0/ 8", "10.0.0.0/0x8", "::ffff:10.0.0.0/95", "example.com/8", "10.0.0.0/008"
        ])
    func test_10_malformedBlocksAreRefused(text: String) {
        #expect(CIDRBlock(text) == nil, "\(text)")
    }

    @Test("issue 10 §3: IPv6 clients are counted by their /64, IPv4 clients by their address")
    func test_10_rateLimitKeys() {
        #expect(
            IPAddress("2001:db8:1:2:aaaa::1")?.rateLimitKey
                == IPAddress("2001:db8:1:2:ffff:ffff:ffff:ffff")?.rateLimitKey)
        #expect(IPAddress("2001:db8:1:2::1")?.rateLimitKey != IPAddress("2001:db8:1:3::1")?.rateLimitKey)
        #expect(IPAddress("2001:db8:1:2::1")?.rateLimitKey == "2001:db8:1:2::/64")
        #expect(IPAddress("::ffff:203.0.113.7")?.rateLimitKey == "203.0.113.7")
        #expect(IPAddress("203.0.113.7")?.rateLimitKey != IPAddress("203.0.113.8")?.rateLimitKey)
    }

    @Test("issue 10 §3: X-Forwarded-For is believed only from a trusted proxy, from the right")
    func test_10_forwardedForFromTheRight() throws {
        let proxies = try #require(TrustedProxies(parsing: "10.0.0.0/8, 2001:db8:ffff::/48"))
        // No trusted proxies: the peer, whatever the header says.
        #expect(TrustedProxies().client(peer: "10.0.0.2", forwardedFor: ["198.51.100.1"]) == "10.0.0.2")
        // A peer that is no trusted proxy: its header is anyone's claim.
        #expect(proxies.client(peer: "203.0.113.9", forwardedFor: ["198.51.100.1"]) == "203.0.113.9")
        // The right-most address that is not a proxy; the left-most one is the client's own (spoofable) claim.
        #expect(
            proxies.client(peer: "10.0.0.2", forwardedFor: ["198.51.100.1, 203.0.113.7, 10.0.0.9"]) == "203.0.113.7")
        // Several header lines are one list, in order.
        #expect(
            proxies.client(peer: "10.0.0.2", forwardedFor: ["198.51.100.1", "203.0.113.7,10.1.1.1"]) == "203.0.113.7")
        // Every address a proxy: the left-most.
        #expect(proxies.client(peer: "10.0.0.2", forwardedFor: ["10.9.9.9, 10.0.0.9"]) == "10.9.9.9")
        // A trusted peer without the header: the peer.
        #expect(proxies.client(peer: "10.0.0.2", forwardedFor: []) == "10.0.0.2")
        // IPv6, brackets and ports, and an IPv4 peer on a dual-stack socket.
        #expect(proxies.client(peer: "2001:db8:ffff::5", forwardedFor: ["[2001:db8:1::7]:443"]) == "2001:db8:1::7")
        #expect(proxies.client(peer: "::ffff:10.0.0.2", forwardedFor: ["203.0.113.7:5555"]) == "203.0.113.7")
        // Junk written where an address should be: the nearest hop known for sure.
        #expect(proxies.client(peer: "10.0.0.2", forwardedFor: ["198.51.100.1, unknown, 10.0.0.9"]) == "10.0.0.9")
        #expect(proxies.client(peer: "10.0.0.2", forwardedFor: ["not-an-address"]) == "10.0.0.2")
    }

    @Test("issue 10 §3: LATCH_TRUSTED_PROXIES is read, and a bad value names the variable")
    func test_10_trustedProxiesConfiguration() throws {
        let key = Data(repeating: 1, count: 32).base64EncodedString()
        let none = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key])
        #expect(none.trustedProxies.blocks.isEmpty)
        let some = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": key, "LATCH_TRUSTED_PROXIES": "10.0.0.0/8, ::1, 2001:db8::/32"
        ])
        #expect(
            some.trustedProxies.blocks == [CIDRBlock("10.0.0.0/8")!, CIDRBlock("::1/128")!, CIDRBlock("2001:db8::/32")!]
        )
        for bad in ["10.0.0.0/33", "10.0.0.1/8", "proxy.internal", "10.0.0.0/8,,nonsense"] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key, "LATCH_TRUSTED_PROXIES": bad])
            }
            do {
                _ = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key, "LATCH_TRUSTED_PROXIES": bad])
            } catch let error as ConfigurationError {
                #expect(error.variable == "LATCH_TRUSTED_PROXIES")
            }
        }
    }

    @Test(
        "issue 10 §3: behind a trusted proxy, security events record the forwarded client; otherwise the peer",
        arguments: TestDatabase.all)
    func test_10_eventsRecordTheForwardedClient(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.trustedProxies = TrustedProxies(parsing: "127.0.0.0/8")! }) {
            server in
            let tokens = try await server.signUp()
            let forwarded = [("X-Forwarded-For", "198.51.100.1, 203.0.113.7")]
            let signIn = try await server.send(
                .POST, "/v1/token",
                json: [
                    "grant_type": "password", "email": "alice@example.com", "password": "Correct-Horse-9",
                    "device": TestServer.testDevice
                ],
                headers: forwarded)
            #expect(signIn.status == 200, "\(signIn.text)")

            let events = try await server.send(.GET, "/v1/security-events", bearer: tokens.accessToken)
            let ips = events.securityEvents.compactMap(\.ip)
            #expect(ips.contains("203.0.113.7"), "\(events.text)")
            #expect(!ips.contains("198.51.100.1"), "the left-most address is the client's own claim")
        }
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            _ = try await server.send(
                .POST, "/v1/token",
                json: ["grant_type": "password", "email": "alice@example.com", "password": "Correct-Horse-9"],
                headers: [("X-Forwarded-For", "203.0.113.7")])
            let events = try await server.send(.GET, "/v1/security-events", bearer: tokens.accessToken)
            let ips = Set(events.securityEvents.compactMap(\.ip))
            #expect(ips == ["127.0.0.1"], "without LATCH_TRUSTED_PROXIES the header is ignored: \(events.text)")
        }
    }
}
