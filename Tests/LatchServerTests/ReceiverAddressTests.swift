import NIOCore
import Testing

@testable import LatchServer

/// Issue 42 §3 "Receiver URLs": which URLs a stream may name and which addresses latchd connects to, as pure
/// values (the resolver with names answered by the test).
@Suite("Receiver URLs and addresses (issue 42 §3)")
struct ReceiverAddressTests {
    static let strict = ReceiverAddressRules.strict
    static let open = ReceiverAddressRules(allowsPlainHTTP: true, allowsPrivateAddresses: true)

    @Test(
        "42 §3 every address is classified by the special-purpose registries, edges included",
        arguments: [
            ("8.8.8.8", ReceiverAddressKind.publicAddress), ("1.1.1.1", .publicAddress),
            ("0.0.0.0", .unspecified), ("0.255.255.255", .unspecified), ("1.0.0.0", .publicAddress),
            ("9.255.255.255", .publicAddress), ("10.0.0.0", .privateNetwork), ("10.255.255.255", .privateNetwork),
            ("11.0.0.0", .publicAddress), ("100.63.255.255", .publicAddress), ("100.64.0.0", .carrierGradeNAT),
            ("100.127.255.255", .carrierGradeNAT), ("100.128.0.0", .publicAddress), ("127.0.0.1", .loopback),
            ("127.255.255.254", .loopback), ("128.0.0.0", .publicAddress), ("169.253.255.255", .publicAddress),
            ("169.254.169.254", .linkLocal), ("169.255.0.0", .publicAddress), ("172.15.255.255", .publicAddress),
            ("172.16.0.0", .privateNetwork), ("172.31.255.255", .privateNetwork), ("172.32.0.0", .publicAddress),
            ("192.0.0.8", .reserved), ("192.0.2.1", .documentation), ("192.88.99.1", .reserved),
            ("192.167.255.255", .publicAddress), ("192.168.0.0", .privateNetwork),
            ("192.168.255.255", .privateNetwork), ("192.169.0.0", .publicAddress), ("198.17.255.255", .publicAddress),
            ("198.18.0.0", .benchmarking), ("198.19.255.255", .benchmarking), ("198.20.0.0", .publicAddress),
            ("198.51.100.7", .documentation), ("203.0.113.7", .documentation), ("223.255.255.255", .publicAddress),
            ("224.0.0.1", .multicast), ("239.255.255.255", .multicast), ("240.0.0.1", .reserved),
            ("255.255.255.254", .reserved), ("255.255.255.255", .broadcast),
            ("::", .unspecified), ("::1", .loopback), ("::2", .reserved), ("::a00:1", .reserved),
            ("2606:4700:4700::1111", .publicAddress), ("2001:4860:4860::8888", .publicAddress),
            ("fc00::1", .privateNetwork), ("fdff:ffff::1", .privateNetwork), ("fbff::1", .reserved),
            ("fe80::1", .linkLocal), ("febf:ffff::1", .linkLocal), ("fec0::1", .privateNetwork),
            ("ff02::1", .multicast), ("2001:db8::1", .documentation), ("3fff::1", .documentation),
            ("2001::1", .reserved), ("2001:2::1", .benchmarking), ("100::1", .reserved), ("4000::1", .reserved),
            ("::ffff:127.0.0.1", .loopback), ("::ffff:10.1.2.3", .privateNetwork), ("::ffff:8.8.8.8", .publicAddress),
            ("::ffff:169.254.169.254", .linkLocal), ("64:ff9b::127.0.0.1", .loopback),
            ("64:ff9b::a9fe:a9fe", .linkLocal), ("64:ff9b::8.8.8.8", .publicAddress), ("64:ff9b:1::1", .reserved),
            ("2002:7f00:1::", .loopback), ("2002:c0a8:101::1", .privateNetwork), ("2002:808:808::1", .publicAddress)
        ])
    func test_42_3_classification(_ text: String, _ kind: ReceiverAddressKind) throws {
        let address = try #require(ReceiverAddress(text))
        #expect(address.kind == kind, "\(text)")
        #expect(address.isAllowed(by: Self.strict) == (kind == .publicAddress), "\(text)")
        #expect(address.isAllowed(by: Self.open), "\(text) with private addresses allowed")
    }

    @Test("42 §3 an IPv4-mapped address is judged and connected to as its IPv4 address; brackets and sockets")
    func test_42_3_mappedAndSocketAddresses() throws {
        let mapped = try #require(ReceiverAddress("[::ffff:10.0.0.1]"))
        #expect(mapped.description == "10.0.0.1" && mapped.kind == .privateNetwork)
        #expect(ReceiverAddress(try SocketAddress(ipAddress: "::ffff:127.0.0.1", port: 1))?.kind == .loopback)
        #expect(ReceiverAddress(try SocketAddress(ipAddress: "172.16.0.1", port: 1))?.kind == .privateNetwork)
        #expect(ReceiverAddress(try SocketAddress(ipAddress: "2606:4700::1", port: 1))?.kind == .publicAddress)
        #expect(ReceiverAddress("example.com") == nil && ReceiverAddress("127.1") == nil)
        // Every kind has a log code and a phrase.
        #expect(Set(ReceiverAddressKind.allCases.map(\.rawValue)).count == ReceiverAddressKind.allCases.count)
    }

    @Test("42 §3 a URL keeps its lowercased host, its port (443/80 by default) and its path and query")
    func test_42_3_urlParts() throws {
        let url = try ReceiverURL("https://Hooks.Example.COM/latch/in?stream=1&t=a%2Fb", rules: Self.strict)
        #expect(url.scheme == .https && url.host == "hooks.example.com" && url.port == 443)
        #expect(url.pathAndQuery == "/latch/in?stream=1&t=a%2Fb" && url.literalAddress == nil)
        #expect(url.text == "https://hooks.example.com/latch/in?stream=1&t=a%2Fb")
        #expect(url.description == "https://hooks.example.com:443/latch/in", "no query in logs")
        let bare = try ReceiverURL("HTTPS://hooks.example.com", rules: Self.strict)
        #expect(bare.pathAndQuery == "/" && bare.port == 443)
        #expect(try ReceiverURL("https://hooks.example.com?x=1", rules: Self.strict).pathAndQuery == "/?x=1")
        let v6 = try ReceiverURL("http://[2606:4700::1]:8080/in", rules: Self.open)
        #expect(v6.host == "2606:4700::1" && v6.port == 8080 && v6.literalAddress?.kind == .publicAddress)
        #expect(v6.text == "http://[2606:4700::1]:8080/in")
        #expect(try ReceiverURL("http://localhost:8080", rules: Self.open).port == 8080)
        #expect(try ReceiverURL("http://example.com/", rules: Self.open).port == 80)
    }

    @Test(
        "42 §3 URL rules: https only, a host, no user:pass@, no fragment, a real port, at most 2048 characters",
        arguments: [
            ("http://hooks.example.com/in", ReceiverURLError.notHTTPS),
            ("ftp://hooks.example.com/in", .unsupportedScheme), ("hooks.example.com/in", .badURL),
            ("https:///in", .missingHost), ("https://:443/in", .missingHost),
            ("https://user:pass@hooks.example.com/in", .userinfo), ("https://token@hooks.example.com/", .userinfo),
            ("https://hooks.example.com@10.0.0.1/", .userinfo), ("https://hooks.example.com/in#top", .fragment),
            ("https://hooks.example.com:0/", .badPort), ("https://hooks.example.com:65536/", .badPort),
            ("https://hooks.example.com:44x/", .badPort), ("https://hooks example.com/", .badURL),
            ("https://hooks.example.com/a b", .badURL), ("https://hooks.example.com/%zz", .badURL),
            ("https://hooks.example.com\\@10.0.0.1/", .badURL), ("https://bücher.example/", .badURL),
            ("https://hooks%2eexample.com/", .badHost), ("https://2130706433/", .badHost),
            ("https://0x7f.1/", .badHost), ("https://127.1/", .badHost), ("https://010.0.0.1/", .badHost),
            ("https://[fe80::1%25eth0]/", .badHost), ("https://[10.0.0.1]/", .badHost),
            ("https://a..b/", .badHost), ("https://[::1/", .badHost),
            ("https://hooks.example.com/" + String(repeating: "a", count: 2_048), .tooLong),
            ("https://127.0.0.1/in", .refusedAddress(.loopback)),
            ("https://10.1.2.3/in", .refusedAddress(.privateNetwork)),
            ("https://[::ffff:192.168.1.1]/", .refusedAddress(.privateNetwork)),
            ("https://169.254.169.254/latest/meta-data", .refusedAddress(.linkLocal)),
            ("https://0.0.0.0/", .refusedAddress(.unspecified)), ("https://[::]/", .refusedAddress(.unspecified)),
            ("https://localhost/in", .refusedAddress(.loopback)),
            ("https://api.localhost./", .refusedAddress(.loopback))
        ])
    func test_42_3_urlRefused(_ text: String, _ error: ReceiverURLError) {
        #expect(throws: error, "\(text)") { try ReceiverURL(text, rules: Self.strict) }
        #expect(!error.reason.isEmpty && !error.reason.contains("example"))
    }

    @Test("42 §3 http and private or loopback hosts are accepted when the rules allow them")
    func test_42_3_urlAllowedBySettings() throws {
        let httpOnly = ReceiverAddressRules(allowsPlainHTTP: true, allowsPrivateAddresses: false)
        #expect(try ReceiverURL("http://hooks.example.com/in", rules: httpOnly).scheme == .http)
        #expect(throws: ReceiverURLError.refusedAddress(.loopback)) {
            try ReceiverURL("http://127.0.0.1:9000/in", rules: httpOnly)
        }
        #expect(try ReceiverURL("http://127.0.0.1:9000/in", rules: Self.open).literalAddress?.kind == .loopback)
        #expect(try ReceiverURL("http://localhost:9000/in", rules: Self.open).host == "localhost")
        #expect(try ReceiverURL("https://10.0.0.5/in", rules: Self.open).host == "10.0.0.5")
        let longest = "https://hooks.example.com/" + String(repeating: "a", count: 2_048 - 26)
        #expect(try ReceiverURL(longest, rules: Self.strict).pathAndQuery.count == 2_048 - 26 + 1)
    }

    @Test("42 §3 a name resolving to loopback (localhost, by the system resolver) is refused unless allowed")
    func test_42_3_localhostResolvesToLoopback() async throws {
        // A name the URL check cannot know: the resolver's answer decides.
        let resolver = ReceiverResolver { _ async throws(ReceiverFailure) in [IPAddress("127.0.0.1")!] }
        let url = try ReceiverURL("https://receiver.example/in", rules: Self.strict)
        await #expect(throws: ReceiverFailure.refusedAddress(.loopback)) {
            try await resolver.resolve(url, rules: Self.strict)
        }
        // The system's own resolver on `localhost` (which the URL check lets through when private
        // addresses are allowed, and then the resolver's answer is loopback).
        let local = try ReceiverURL("http://localhost:9/in", rules: Self.open)
        let httpOnly = ReceiverAddressRules(allowsPlainHTTP: true, allowsPrivateAddresses: false)
        await #expect(throws: ReceiverFailure.refusedAddress(.loopback)) {
            try await ReceiverResolver.system.resolve(local, rules: httpOnly)
        }
        let resolved = try await ReceiverResolver.system.resolve(local, rules: Self.open)
        #expect(resolved.addresses.allSatisfy { $0.kind == .loopback } && !resolved.addresses.isEmpty)
    }

    @Test("42 §3 a name with a public and a private address is refused; an all-public one is pinned to its first")
    func test_42_3_mixedResolutionRefused() async throws {
        let url = try ReceiverURL("https://receiver.example/in", rules: Self.strict)
        let mixed = ReceiverResolver { _ async throws(ReceiverFailure) in
            [IPAddress("93.184.215.14")!, IPAddress("10.0.0.7")!]
        }
        await #expect(throws: ReceiverFailure.refusedAddress(.privateNetwork)) {
            try await mixed.resolve(url, rules: Self.strict)
        }
        #expect(try await mixed.resolve(url, rules: Self.open).pin.description == "93.184.215.14")
        let rebinding = ReceiverResolver { _ async throws(ReceiverFailure) in
            [IPAddress("2606:4700::1")!, IPAddress("::ffff:127.0.0.1")!]
        }
        await #expect(throws: ReceiverFailure.refusedAddress(.loopback)) {
            try await rebinding.resolve(url, rules: Self.strict)
        }
        let public2 = ReceiverResolver { _ async throws(ReceiverFailure) in
            [IPAddress("93.184.215.14")!, IPAddress("93.184.215.15")!, IPAddress("93.184.215.14")!]
        }
        let resolution = try await public2.resolve(url, rules: Self.strict)
        #expect(resolution.addresses.map(\.description) == ["93.184.215.14", "93.184.215.15"])
        // A pin still among the addresses is kept (round-robin DNS keeps its connections).
        #expect(resolution.pin(keeping: ReceiverAddress("93.184.215.15")).description == "93.184.215.15")
        #expect(resolution.pin(keeping: ReceiverAddress("93.184.215.99")).description == "93.184.215.14")
        let none = ReceiverResolver { _ async throws(ReceiverFailure) in [] }
        await #expect(throws: ReceiverFailure.unresolvable) { try await none.resolve(url, rules: Self.strict) }
    }

    @Test("42 §3 an IP literal is not resolved; a name that does not exist is unresolvable")
    func test_42_3_literalNotResolved() async throws {
        let failing = ReceiverResolver { _ async throws(ReceiverFailure) in
            Issue.record("a literal was looked up")
            return []
        }
        let url = try ReceiverURL("https://93.184.215.14/in", rules: Self.strict)
        #expect(try await failing.resolve(url, rules: Self.strict).pin.description == "93.184.215.14")
        let missing = try ReceiverURL("https://no-such-receiver.invalid/in", rules: Self.strict)
        await #expect(throws: ReceiverFailure.unresolvable) {
            try await ReceiverResolver.system.resolve(missing, rules: Self.strict)
        }
    }

    @Test("42 §3 the timeouts are read from LATCH_EVENT_STREAMS_*_TIMEOUT_SECONDS, a bad value names its variable")
    func test_42_3_settingsFromEnvironment() throws {
        let defaults = try ReceiverClientSettings.fromEnvironment { _ in nil }
        #expect(defaults.connectTimeout == .seconds(5) && defaults.answerTimeout == .seconds(10))
        #expect(defaults.answerBodyLimit == 4_096 && defaults.cachedClients == 64)
        let set = try ReceiverClientSettings.fromEnvironment {
            ["LATCH_EVENT_STREAMS_CONNECT_TIMEOUT_SECONDS": "2", "LATCH_EVENT_STREAMS_ANSWER_TIMEOUT_SECONDS": "30"][$0]
        }
        #expect(set.connectTimeout == .seconds(2) && set.answerTimeout == .seconds(30))
        #expect(throws: ConfigurationError.self) {
            try ReceiverClientSettings.fromEnvironment {
                $0 == "LATCH_EVENT_STREAMS_CONNECT_TIMEOUT_SECONDS" ? "0" : nil
            }
        }
        do {
            _ = try ReceiverClientSettings.fromEnvironment {
                $0 == "LATCH_EVENT_STREAMS_ANSWER_TIMEOUT_SECONDS" ? "ten" : nil
            }
            Issue.record("ten was accepted")
        } catch let error as ConfigurationError {
            #expect(error.variable == "LATCH_EVENT_STREAMS_ANSWER_TIMEOUT_SECONDS")
        }
    }
}
