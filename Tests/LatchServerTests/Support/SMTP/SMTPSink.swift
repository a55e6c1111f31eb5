import Foundation
import LatchTestSupport
import Testing

/// An SMTP server on a loopback port, started for one test, that keeps what it receives.
///
/// By default the suite's own server in Swift (`SwiftSMTPServer`): `swift test` needs nothing else.
/// With `LATCH_TEST_SMTP_SINK=aiosmtpd` (set by `.ci/run`), Python's aiosmtpd instead
/// (`scripts/test/smtp_sink.py`, needs python3 with aiosmtpd and the `openssl` command): the same
/// tests then check latchd's client against an independent implementation. Options are the script's
/// flags (`SMTPSinkOptions`).
final class SMTPSink: Sendable {
    typealias Message = ReceivedMail

    let port: Int
    private let server: Server

    private enum Server: Sendable {
        case swift(SwiftSMTPServer, folder: URL)
        case aiosmtpd(AiosmtpdSink)
    }

    /// Whether this run uses aiosmtpd (`LATCH_TEST_SMTP_SINK=aiosmtpd`).
    static var usesAiosmtpd: Bool { ProcessInfo.processInfo.environment["LATCH_TEST_SMTP_SINK"] == "aiosmtpd" }

    /// Starts a sink with `options` (`--auth U:P`, `--fail-first N`, `--starttls` …).
    static func start(_ options: [String] = []) async throws -> SMTPSink {
        if usesAiosmtpd {
            let sink = try await AiosmtpdSink.start(options)
            return SMTPSink(port: sink.port, server: .aiosmtpd(sink))
        }
        let server = try await SwiftSMTPServer.start(try SMTPSinkOptions(arguments: options))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let pem = server.certificatePEM {
            try pem.write(to: folder.appendingPathComponent("cert.pem"), atomically: true, encoding: .utf8)
        }
        return SMTPSink(port: server.port, server: .swift(server, folder: folder))
    }

    private init(port: Int, server: Server) {
        self.port = port
        self.server = server
    }

    /// Stops the sink (closing its connections) and removes its files.
    func stop() {
        switch server {
        case .swift(let server, let folder):
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        case .aiosmtpd(let sink):
            sink.stop()
        }
    }

    /// The messages received so far, in order.
    func messages() throws -> [Message] {
        switch server {
        case .swift(let server, _): server.messages
        case .aiosmtpd(let sink): try sink.messages()
        }
    }

    /// What each DATA command got: "accepted", "refused 451", "stalled" …
    func attempts() -> [String] {
        switch server {
        case .swift(let server, _): server.attempts
        case .aiosmtpd(let sink): sink.attempts()
        }
    }

    /// How many connections the sink has accepted so far.
    func connections() -> Int {
        switch server {
        case .swift(let server, _): server.connections
        case .aiosmtpd(let sink): sink.connections()
        }
    }

    /// How many connections are open now; nil with aiosmtpd, which does not say.
    func openConnections() -> Int? {
        switch server {
        case .swift(let server, _): server.openConnections
        case .aiosmtpd: nil
        }
    }

    /// Waits (`eventually`: long enough for any machine load) until `count` messages have arrived.
    func waitForMessages(_ count: Int) async throws -> [Message] {
        var received: [Message] = []
        guard
            try await eventually(
                every: .milliseconds(20),
                {
                    received = try messages(); return received.count >= count
                })
        else { throw SMTPSinkError.timedOut("\(count) message(s); got \(received.count)") }
        return received
    }

    /// The TLS certificate (PEM) the sink presents with `--starttls` or `--implicit-tls`.
    var certificatePath: String {
        switch server {
        case .swift(_, let folder): folder.appendingPathComponent("cert.pem").path
        case .aiosmtpd(let sink): sink.folder.appendingPathComponent("cert.pem").path
        }
    }
}

/// Runs `body` with a sink started with `options`, and always stops it.
func withSMTPSink(_ options: [String] = [], _ body: (SMTPSink) async throws -> Void) async throws {
    let sink = try await SMTPSink.start(options)
    do {
        try await body(sink)
    } catch {
        sink.stop()
        throw error
    }
    sink.stop()
}
