import Foundation
import LatchTestSupport

/// aiosmtpd (`scripts/test/smtp_sink.py`) as the tests' SMTP server, selected by
/// `LATCH_TEST_SMTP_SINK=aiosmtpd` (`.ci/run`): the interop check of latchd's SMTP client against an
/// independent server. Needs python3 with aiosmtpd, and the `openssl` command for TLS.
final class AiosmtpdSink: Sendable {
    let port: Int
    let folder: URL
    private let process: ChildProcess

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/test/smtp_sink.py")

    static func start(_ options: [String]) async throws -> AiosmtpdSink {
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
            throw SMTPSinkError.didNotStart("is python3 with aiosmtpd installed? pip install aiosmtpd: \(said)")
        }
        return AiosmtpdSink(port: port, folder: folder, process: process)
    }

    private init(port: Int, folder: URL, process: ChildProcess) {
        self.port = port
        self.folder = folder
        self.process = process
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func messages() throws -> [ReceivedMail] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        return try names.map {
            try JSONDecoder().decode(ReceivedMail.self, from: Data(contentsOf: folder.appendingPathComponent($0)))
        }
    }

    func attempts() -> [String] { lines(of: "attempts.log") }

    func connections() -> Int { lines(of: "connections.log").count }

    private func lines(of name: String) -> [String] {
        let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }
}
