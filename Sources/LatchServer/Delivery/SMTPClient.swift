import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A small SMTP client (RFC 5321) on SwiftNIO: one connection per mail, EHLO, STARTTLS when the
/// server offers it (required unless the host is loopback or the URL says `smtp+insecure://`),
/// AUTH PLAIN or LOGIN when credentials are configured, MAIL FROM / RCPT TO / DATA, QUIT.
/// Every step has a timeout; a cancelled task closes the connection.
///
///     let client = try SMTPClient(configuration: SMTPConfiguration(url: "smtp://user:pass@mail.example.com:587"))
///     try await client.send(SMTPEnvelope(from: "latch@example.com", recipients: ["alice@example.com"], message: text))
struct SMTPClient: Sendable {
    let configuration: SMTPConfiguration
    private let tls: NIOSSLContext
    private let group: any EventLoopGroup

    init(configuration: SMTPConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws {
        self.configuration = configuration
        self.tls = try NIOSSLContext(configuration: configuration.tls)
        self.group = group
    }

    /// Sends one mail. Throws `SMTPError` (see `isTemporary`) when the server does not take it.
    func send(_ envelope: SMTPEnvelope) async throws {
        let addresses = [envelope.from] + envelope.recipients
        guard !envelope.recipients.isEmpty, addresses.allSatisfy(Self.isCarriable) else {
            throw SMTPError.invalidAddress
        }
        let connection = try await SMTPConnection.open(configuration, tls: tls, group: group)
        try await withTaskCancellationHandler {
            do {
                try await transact(envelope, on: connection)
            } catch {
                await connection.close()
                throw error as? SMTPError ?? SMTPError.connection(SMTPConnection.name(of: error))
            }
        } onCancel: {
            connection.channel.close(promise: nil)
        }
    }

    private func transact(_ envelope: SMTPEnvelope, on connection: SMTPConnection) async throws {
        try expect(try await connection.reply(to: "greeting"), 220, step: "greeting")
        var extensions = try await hello(envelope.clientName, on: connection)
        var encrypted = configuration.security == .implicitTLS
        if !encrypted, extensions.contains("STARTTLS") {
            try expect(try await connection.command("STARTTLS", step: "STARTTLS"), 220, step: "STARTTLS")
            try await connection.startTLS(tls, serverHostname: configuration.serverHostname)
            encrypted = true
            extensions = try await hello(envelope.clientName, on: connection)
        }
        if !encrypted, configuration.security == .startTLSRequired { throw SMTPError.startTLSUnavailable }
        if let username = configuration.username {
            guard encrypted || configuration.isLoopback else { throw SMTPError.refusedPlaintextAuthentication }
            try await authenticate(username, configuration.password ?? "", extensions: extensions, on: connection)
        }
        try expect(
            try await connection.command("MAIL FROM:<\(envelope.from)>", step: "MAIL FROM"), 250, step: "MAIL FROM")
        for recipient in envelope.recipients {
            try expect(
                try await connection.command("RCPT TO:<\(recipient)>", step: "RCPT TO"), 250, 251, step: "RCPT TO")
        }
        try expect(try await connection.command("DATA", step: "DATA"), 354, step: "DATA")
        try await connection.write(SMTPDataEncoding.encode(envelope.message))
        try expect(try await connection.reply(to: "end of data"), 250, step: "end of data")
        // The mail is accepted; QUIT is a courtesy and its failure changes nothing.
        _ = try? await connection.command("QUIT", step: "QUIT")
        await connection.close()
    }

    /// EHLO (HELO for a server that does not know EHLO); returns the offered extensions, upper-cased.
    private func hello(_ name: String, on connection: SMTPConnection) async throws -> [String] {
        let reply = try await connection.command("EHLO \(name)", step: "EHLO")
        if reply.isCompletion { return reply.lines.dropFirst().map { $0.uppercased() } }
        if reply.code >= 500, reply.code != 554 {
            try expect(try await connection.command("HELO \(name)", step: "HELO"), 250, step: "HELO")
            return []
        }
        throw SMTPError.rejected(step: "EHLO", code: reply.code)
    }

    private func authenticate(
        _ username: String, _ password: String, extensions: [String], on connection: SMTPConnection
    ) async throws {
        let mechanisms = Set(
            extensions.filter { $0.hasPrefix("AUTH ") || $0.hasPrefix("AUTH=") }
                .flatMap { $0.dropFirst(5).split(separator: " ").map(String.init) })
        if mechanisms.contains("PLAIN") {
            let token = Data(([0] + Array(username.utf8) + [0] + Array(password.utf8))).base64EncodedString()
            try expect(try await connection.command("AUTH PLAIN \(token)", step: "AUTH PLAIN"), 235, step: "AUTH PLAIN")
        } else if mechanisms.contains("LOGIN") {
            try expect(try await connection.command("AUTH LOGIN", step: "AUTH LOGIN"), 334, step: "AUTH LOGIN")
            let user = Data(username.utf8).base64EncodedString()
            try expect(try await connection.command(user, step: "AUTH LOGIN user"), 334, step: "AUTH LOGIN user")
            let secret = Data(password.utf8).base64EncodedString()
            try expect(
                try await connection.command(secret, step: "AUTH LOGIN password"), 235, step: "AUTH LOGIN password")
        } else {
            throw SMTPError.authenticationUnsupported
        }
    }

    private func expect(_ reply: SMTPReply, _ accepted: Int..., step: String) throws {
        guard accepted.contains(reply.code) else { throw SMTPError.rejected(step: step, code: reply.code) }
    }

    /// Whether `address` fits between angle brackets on one command line.
    static func isCarriable(_ address: String) -> Bool {
        !address.isEmpty && address.utf8.count <= 254
            && !address.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F || $0 == "<" || $0 == ">" }
    }
}
