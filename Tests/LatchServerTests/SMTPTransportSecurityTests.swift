import Foundation
import Logging
import NIOSSL
import Testing

@testable import LatchServer

/// Issue 10 §4: mail never leaves unencrypted for another machine unless `LATCH_SMTP_URL` says
/// `smtp+insecure://`, and an IP-address host is checked against the certificate's IP addresses.
/// The sink runs on loopback only, so the rule's decision is tested as a pure function and its
/// effect by forcing the non-loopback setting onto a loopback connection.
@Suite("SMTP transport security (issue 10)", .serialized)
struct SMTPTransportSecurityTests {
    @Test(
        "test_10 smtp:// to a non-loopback host requires STARTTLS; loopback and smtp+insecure:// allow plain; smtps:// is TLS at once"
    )
    func test_10_smtpSecurityDecision() throws {
        let cases: [(String, SMTPConfiguration.Security)] = [
            ("smtp://mail.example.com", .startTLSRequired),
            ("smtp://latch:pw@mail.example.com:587", .startTLSRequired),
            ("smtp://203.0.113.5", .startTLSRequired),
            ("smtp://[2001:db8::25]:25", .startTLSRequired),
            ("smtp://127.example.com", .startTLSRequired),
            ("smtp://127.0.0.1:2525", .startTLSWhenOffered),
            ("smtp://[::1]:2525", .startTLSWhenOffered),
            ("smtp://localhost", .startTLSWhenOffered),
            ("smtp+insecure://relay.internal", .startTLSWhenOffered),
            ("SMTP+INSECURE://relay.internal:2525", .startTLSWhenOffered),
            ("smtps://mail.example.com", .implicitTLS)
        ]
        for (url, expected) in cases {
            #expect(try SMTPConfiguration(url: url).security == expected, "\(url)")
        }
        let insecure = try SMTPConfiguration(url: "smtp+insecure://relay.internal")
        #expect(insecure.port == 25 && insecure.description == "smtp+insecure://relay.internal:25")
        let config = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": ConfigurationTests.key, "LATCH_SMTP_URL": "smtp+insecure://relay.internal",
            "LATCH_MAIL_FROM": "latch@example.com"
        ])
        #expect(config.smtpURL == "smtp+insecure://relay.internal")
    }

    @Test(
        "test_10 an IP-address host gets no SNI name, so the certificate is checked against its IP SANs; names are names"
    )
    func test_10_ipHostIsVerifiedByAddress() throws {
        #expect(try SMTPConfiguration(url: "smtps://203.0.113.5").serverHostname == nil)
        #expect(try SMTPConfiguration(url: "smtps://[2001:db8::25]").serverHostname == nil)
        #expect(try SMTPConfiguration(url: "smtps://mail.example.com").serverHostname == "mail.example.com")
        #expect(try SMTPConfiguration(url: "smtps://127.example.com").serverHostname == "127.example.com")
        #expect(try SMTPConfiguration(url: "smtps://12345").serverHostname == "12345")
    }

    @Test(
        "test_10 when STARTTLS is required and the server does not offer it, nothing is sent and the failure is permanent and logged as configuration"
    )
    func test_10_requiredStartTLSMissingFailsPermanently() async throws {
        try await withSMTPSink { sink in
            var configuration = try SMTPConfiguration(url: "smtp://127.0.0.1:\(sink.port)")
            configuration.security = .startTLSRequired // what smtp:// to a non-loopback host gets
            let client = try SMTPClient(configuration: configuration)
            let error = try await #require(throws: SMTPError.self) { try await client.send(SMTPClientTests.envelope()) }

            let lines = LogCapture()
            let queue = DeliveryQueue(
                channel: "mail", policy: SMTPClientTests.quick, logger: Logger(label: "test") { _ in lines })
            let delivery = SMTPMailDelivery(
                client: client, from: try MailAddress(parsing: "latch@latch.test"), queue: queue)
            try await delivery.deliver(SMTPClientTests.message())
            await queue.waitUntilIdle()

            #expect(error == .startTLSUnavailable && !error.isTemporary)
            #expect(try sink.messages().isEmpty && sink.attempts().isEmpty, "no MAIL, no DATA in the clear")
            #expect(
                lines.text.contains("permanent failure") && lines.text.contains("configuration error"), "\(lines.text)")
            #expect(!lines.text.contains("will retry"))
        }
    }

    @Test("test_10 when STARTTLS is required and offered, the mail goes over TLS")
    func test_10_requiredStartTLSOfferedIsUsed() async throws {
        try await withSMTPSink(["--starttls"]) { sink in
            var configuration = try SMTPConfiguration(url: "smtp://127.0.0.1:\(sink.port)")
            configuration.security = .startTLSRequired
            configuration.tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(sink.certificatePath))

            try await SMTPClient(configuration: configuration).send(SMTPClientTests.envelope())

            let mail = try #require(try sink.messages().first)
            #expect(mail.tls)
        }
    }

    @Test(
        "test_10 an IP host: a certificate naming that IP passes, one naming only a DNS name fails and nothing is sent",
        arguments: [
            ("IP:127.0.0.1", true), ("DNS:localhost", false), ("IP:127.0.0.2,DNS:localhost", false)
        ])
    func test_10_ipHostCertificateMustNameTheIP(san: String, accepted: Bool) async throws {
        try await withSMTPSink(["--implicit-tls", "--san", san]) { sink in
            var configuration = try SMTPConfiguration(url: "smtps://127.0.0.1:\(sink.port)")
            configuration.tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(sink.certificatePath))
            let client = try SMTPClient(configuration: configuration)

            let outcome: Result<Void, any Error> = await Result { try await client.send(SMTPClientTests.envelope()) }

            switch (outcome, accepted) {
            case (.success, true):
                #expect(try sink.messages().count == 1)
            case (.failure(let error), false):
                // Usually `.connection("TLS: … failedToValidateHostname …")`; when the server's greeting
                // races the failed check the connection is simply gone. Either way: no mail.
                #expect(error is SMTPError, "\(error)")
                #expect(try sink.messages().isEmpty && sink.attempts().isEmpty)
            case (.success, false):
                Issue.record("a certificate without IP:127.0.0.1 was accepted for 127.0.0.1 (\(san))")
            case (.failure(let error), true):
                Issue.record("a certificate with IP:127.0.0.1 was refused: \(error)")
            }
        }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing body.
    init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
