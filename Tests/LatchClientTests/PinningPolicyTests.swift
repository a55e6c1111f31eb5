import Foundation
import Testing

@testable import LatchClient

/// C10: certificate pinning is decided by `PinningPolicy`, here, on Linux; the Apple delegate only enforces it.
/// The certificates and pins below were made with OpenSSL
/// (`openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`).
@Suite("Certificate pinning (C10)")
struct PinningPolicyTests {
    /// A self-signed P-256 certificate for auth.example.com (X.509 v3).
    static let ecCertificate = Data(
        base64Encoded:
            "MIIBizCCATGgAwIBAgIUcoJh66cThUwU5qleE25Ij21tpY8wCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQYXV0aC5leGFtcGxlLmNvbTAeFw0yNjExMjIxMzQyNTJaFw0zNjExMTkxMzQyNTJaMBsxGTAXBgNVBAMMEGF1dGguZXhhbXBsZS5jb20wWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASjECidyDNl1Q6hHk2cONPRiKm+c8CqtqLI8sCY63a4yS5R0C8rY6IC63KtQo1849Sc3AXZqbCZApDoZviGyTEYo1MwUTAdBgNVHQ4EFgQULH4n4ixocqZ3Pj5vwL5EFbYbc1gwHwYDVR0jBBgwFoAULH4n4ixocqZ3Pj5vwL5EFbYbc1gwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiA6HcISRmiyAgoiex8jEtR0vO1Bx+NL73d7KY97qQzhhgIhALN/Lh4S9h1fQoe8pKrlDnoFs9iL0KT8gOhX0i7e5V8/"
    )!
    static let ecPin = "s619fqZM59JQXlmYYdeCB2j44Vyk/TFAuAZ8wtzOvuw="
    /// A self-signed RSA-2048 certificate for backup.example.com (X.509 v3).
    static let rsaCertificate = Data(
        base64Encoded:
            "MIIDGzCCAgOgAwIBAgIUUQxiAWANUyCu0MqWnqYmeuGjW9QwDQYJKoZIhvcNAQELBQAwHTEbMBkGA1UEAwwSYmFja3VwLmV4YW1wbGUuY29tMB4XDTI2MTEyMjEzNDI1MloXDTM2MTExOTEzNDI1MlowHTEbMBkGA1UEAwwSYmFja3VwLmV4YW1wbGUuY29tMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAsCRtS1TLB/YVz4vcyEVOCsjjKThs4eTj3Ib7o6ukS1SO0bPzA+UeIE8WLmqx3UIjudw8dIiCS7L9odVMIrI6PkzPgPGNwXDxGcQoZuZyJoRBWgPYU0C7sy2Xd2HJAbPJRivYa4PylZvXYiTwJyltnU1dOekhxlZvZBHb3gE/xapJEZDQMiXoVCJ1csB9YVsCAITyap1K3qlnGsQp38abyvTiRa2tfqBHTWJdpaaETBW9R52dVOyDW0HQI89KqdilaU7LtzZDNE+oIg44+bnLw3ETYDtL7W+FUHWmQeAaLrdmfnQVyeMY+L9r6AcnFhdAlcX/YSY3dcIVWRv94pqOmwIDAQABo1MwUTAdBgNVHQ4EFgQUB+UVFuf5m7ny7CWgQHX0jTFl2W0wHwYDVR0jBBgwFoAUB+UVFuf5m7ny7CWgQHX0jTFl2W0wDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOCAQEARz8tv7UCC4lzhJVcvHcctbsE/AexPIxO98D6pJ8tteCn3f6Du8UrIq5bq7RegI03mftDda8vXt1tsFp2S5MrgxMDr6FGzQDvwwV+8u1QUOdExEw3KpnsRkHa+8KjerwNyIU59tHlOIpQzQ1TDvlYV4BhWpdzKCGTlkOIxgc6StLbCqq147K4eyq8ROvof7k5LOU2q8SaJXhhuZgZaP3OpCiiAlMjVvg1xqFs2pPw5u/vnEtTxjpxXhd3g7B5XHh0q1bApGNqgbN9oZh/eWAy6VK87Du82K6t6c6Qx1c3rA3ztneT+p/d9L7gP5+OUnkokmlnlGkMo0gB6DDvy2sGcA=="
    )!
    static let rsaPin = "+v1i92bUBrN0rM4XVJSQ5Irdh2pGLLxoF9zQ9rGf1wE="
    /// An X.509 v1 certificate (no version field) with the same P-256 key as `ecCertificate`.
    static let v1Certificate = Data(
        base64Encoded:
            "MIIBLTCB0wIUZJU1+301zIHXONRxnaAYumQxPgIwCgYIKoZIzj0EAwIwGTEXMBUGA1UEAwwOdjEuZXhhbXBsZS5jb20wHhcNMjYxMTIyMTM0MjU1WhcNMzYxMTE5MTM0MjU1WjAZMRcwFQYDVQQDDA52MS5leGFtcGxlLmNvbTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKMQKJ3IM2XVDqEeTZw409GIqb5zwKq2osjywJjrdrjJLlHQLytjogLrcq1CjXzj1JzcBdmpsJkCkOhm+IbJMRgwCgYIKoZIzj0EAwIDSQAwRgIhALlnq43PXLttCI9LSaQOnI/THXX/gDJ9L0wkpPVVmpVGAiEAr5ONDicDzcSozmYIOsIvhPCCTwuU4GBjSxVv/eHqRcI="
    )!
    /// A pin of no key used here.
    static let otherPin = Data(repeating: 7, count: 32).base64EncodedString()

    static func hash(_ pin: String) -> Data { Data(base64Encoded: pin)! }

    @Test func C10_spkiOfCertificatesHashesToOpenSSLPins() throws {
        let ec = try #require(SubjectPublicKeyInfo.derFromCertificate(Self.ecCertificate))
        let rsa = try #require(SubjectPublicKeyInfo.derFromCertificate(Self.rsaCertificate))
        let v1 = try #require(SubjectPublicKeyInfo.derFromCertificate(Self.v1Certificate))

        #expect(PinningPolicy.pin(ofSPKI: ec) == Self.ecPin)
        #expect(PinningPolicy.pin(ofSPKI: rsa) == Self.rsaPin)
        #expect(PinningPolicy.pin(ofSPKI: v1) == Self.ecPin)
        #expect(ec.count == 91) // the fixed size of a P-256 SubjectPublicKeyInfo
    }

    @Test func C10_garbageIsNoCertificate() {
        #expect(SubjectPublicKeyInfo.derFromCertificate(Data()) == nil)
        #expect(SubjectPublicKeyInfo.derFromCertificate(Data([0x30, 0x82, 0xFF, 0xFF, 0x01])) == nil)
        #expect(SubjectPublicKeyInfo.derFromCertificate(Data("not a certificate".utf8)) == nil)
        #expect(SubjectPublicKeyInfo.derFromCertificate(Self.ecCertificate.dropLast(10)) == nil)
    }

    @Test func C10_pinnedKeyAnywhereInTheChainAllows() throws {
        let policy = try PinningPolicy([.init(host: "auth.example.com", pins: [Self.ecPin, Self.otherPin])])

        #expect(policy.evaluate(host: "auth.example.com", chainSPKIHashes: [Self.hash(Self.ecPin)]) == .allow)
        #expect(
            policy.evaluate(host: "auth.example.com", chainSPKIHashes: [Self.hash(Self.rsaPin), Self.hash(Self.ecPin)])
                == .allow)
        #expect(policy.evaluate(host: "auth.example.com", certificateChain: [Self.ecCertificate]) == .allow)
    }

    @Test func C10_backupPinAllowsAfterKeyRotation() throws {
        let policy = try PinningPolicy([.init(host: "auth.example.com", pins: [Self.ecPin, Self.rsaPin])])

        #expect(policy.evaluate(host: "auth.example.com", certificateChain: [Self.rsaCertificate]) == .allow)
    }

    @Test func C10_unpinnedKeyIsRejected() throws {
        let policy = try PinningPolicy([.init(host: "auth.example.com", pins: [Self.ecPin])])

        #expect(
            policy.evaluate(host: "auth.example.com", certificateChain: [Self.rsaCertificate])
                == .reject(.noPinnedKey(host: "auth.example.com")))
        #expect(
            policy.evaluate(host: "auth.example.com", chainSPKIHashes: [])
                == .reject(.emptyChain(host: "auth.example.com")))
        #expect(
            policy.evaluate(host: "auth.example.com", certificateChain: [Data("junk".utf8)])
                == .reject(.unreadableCertificate(host: "auth.example.com")))
    }

    @Test func C10_otherHostsAreNotPinned() throws {
        let policy = try PinningPolicy([.init(host: "auth.example.com", pins: [Self.ecPin])])

        #expect(policy.evaluate(host: "cdn.example.com", certificateChain: [Self.rsaCertificate]) == .notPinned)
        // Without includesSubdomains a subdomain is not pinned.
        #expect(policy.evaluate(host: "api.auth.example.com", certificateChain: [Self.rsaCertificate]) == .notPinned)
        // A longer name that merely ends the same way is another host.
        #expect(policy.evaluate(host: "evilauth.example.com", certificateChain: [Self.rsaCertificate]) == .notPinned)
    }

    @Test func C10_subdomainsFollowTheNearestRuleThatIncludesThem() throws {
        let policy = try PinningPolicy([
            .init(host: "example.com", includesSubdomains: true, pins: [Self.rsaPin]),
            .init(host: "auth.example.com", pins: [Self.ecPin])
        ])

        #expect(policy.evaluate(host: "deep.api.example.com", certificateChain: [Self.rsaCertificate]) == .allow)
        #expect(policy.evaluate(host: "example.com", certificateChain: [Self.rsaCertificate]) == .allow)
        // The host's own rule wins over its parent's.
        #expect(policy.evaluate(host: "auth.example.com", certificateChain: [Self.ecCertificate]) == .allow)
        #expect(
            policy.evaluate(host: "auth.example.com", certificateChain: [Self.rsaCertificate])
                == .reject(.noPinnedKey(host: "auth.example.com")))
        // auth.example.com does not include subdomains, so its subdomains fall to example.com's rule.
        #expect(policy.evaluate(host: "x.auth.example.com", certificateChain: [Self.rsaCertificate]) == .allow)
        #expect(
            policy.evaluate(host: "x.auth.example.com", certificateChain: [Self.ecCertificate])
                == .reject(.noPinnedKey(host: "example.com")))
    }

    @Test func C10_hostNamesAreComparedWithoutCaseOrTrailingDot() throws {
        let policy = try PinningPolicy([.init(host: "Auth.Example.COM.", pins: [Self.ecPin])])

        #expect(policy.evaluate(host: "AUTH.example.com", certificateChain: [Self.ecCertificate]) == .allow)
        #expect(policy.evaluate(host: "auth.example.com.", certificateChain: [Self.rsaCertificate]) != .notPinned)
    }

    @Test func C10_badConfigurationsAreRefused() {
        #expect(throws: PinningConfigurationError(.invalidPin("abc"), host: "a.example")) {
            try PinningPolicy([.init(host: "a.example", pins: ["abc"])])
        }
        let sixteenBytes = Data(repeating: 1, count: 16).base64EncodedString()
        #expect(throws: PinningConfigurationError(.invalidPin(sixteenBytes), host: "a.example")) {
            try PinningPolicy([.init(host: "a.example", pins: [sixteenBytes])])
        }
        #expect(throws: PinningConfigurationError(.noPins, host: "a.example")) {
            try PinningPolicy([.init(host: "a.example", pins: [])])
        }
        #expect(throws: PinningConfigurationError(.duplicateHost, host: "a.example")) {
            try PinningPolicy([
                .init(host: "a.example", pins: [Self.ecPin]), .init(host: "A.example.", pins: [Self.rsaPin])
            ])
        }
        #expect(throws: PinningConfigurationError(.emptyHost, host: ".")) {
            try PinningPolicy([.init(host: ".", pins: [Self.ecPin])])
        }
    }
}
