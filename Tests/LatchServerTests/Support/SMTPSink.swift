import Foundation
import LatchTestSupport
import Testing

/// A real SMTP server (aiosmtpd, `scripts/test/smtp_sink.py`) on a loopback port, started for one
/// test. Python 3 with aiosmtpd is required: without it `start` throws and the test fails.
final class SMTPSink: Sendable {
    let port: Int
    let folder: URL
    private let process: ChildProcess

    enum SinkError: Error, CustomStringConvertible {
        case didNotStart(String)
        case timedOut(String)
        var description: String {
            switch self {
            case .didNotStart(let output):
                "the SMTP sink did not start (is python3 with aiosmtpd installed? pip install aiosmtpd): \(output)"
            case .timedOut(let what): "timed out waiting for \(what)"
            }
        }
    }

    /// One received message as the sink decoded it.
    struct Message: Decodable, Sendable {
        struct Part: Decodable, Sendable {
            let content_type: String
            let charset: String?
            let transfer_encoding: String?
            let content: String
        }
        struct Auth: Decodable, Sendable {
            let mechanism: String
            let login: String
        }
        let mail_from: String
        let rcpt_tos: [String]
        let subject: String
        let from: String
        let to: String
        let date: String
        let message_id: String
        let content_type: String
        let parts: [Part]
        let raw: String
        let tls: Bool
        let auth: Auth?

        func part(_ type: String) -> String? { parts.first { $0.content_type == type }?.content }
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/test/smtp_sink.py")

    /// Starts the sink with `options` (see the script: `--auth U:P`, `--fail-first N`, `--starttls` …).
    static func start(_ options: [String] = []) async throws -> SMTPSink {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = try ChildProcess(["python3", script.path, folder.path] + options)
        // Everything before READY (warnings, a traceback) explains a failed start. Read on a thread of
        // its own: `readLine` blocks until Python has started, and a blocked task would hold one of the
        // test process's few cooperative threads (one per core) and stall every suite beside it.
        let (port, said) = await withCheckedContinuation { (continuation: CheckedContinuation<(Int?, String), Never>) in
            Thread {
                var said: [String] = []
                while let line = process.readLine() {
                    if line.hasPrefix("READY "), let port = Int(line.dropFirst(6)) {
                        continuation.resume(returning: (port, ""))
                        return
                    }
                    said.append(line)
                }
                continuation.resume(returning: (nil, said.joined(separator: "\n")))
            }.start()
        }
        guard let port else {
            process.stop()
            throw SinkError.didNotStart(said)
        }
        return SMTPSink(port: port, folder: folder, process: process)
    }

    private init(port: Int, folder: URL, process: ChildProcess) {
        self.port = port
        self.folder = folder
        self.process = process
    }

    /// Stops the sink and removes its folder.
    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The messages received so far, in order.
    func messages() throws -> [Message] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        return try names.map {
            try JSONDecoder().decode(Message.self, from: Data(contentsOf: folder.appendingPathComponent($0)))
        }
    }

    /// What each DATA command got: "accepted", "refused 451", "stalled" …
    func attempts() -> [String] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("attempts.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Waits (up to `seconds`) until `count` messages have arrived.
    func waitForMessages(_ count: Int, seconds: Double = 20) async throws -> [Message] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let received = try messages()
            if received.count >= count { return received }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw SinkError.timedOut("\(count) message(s); got \(try messages().count)")
    }

    /// The TLS certificate the sink made for `--starttls`.
    var certificatePath: String { folder.appendingPathComponent("cert.pem").path }
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
