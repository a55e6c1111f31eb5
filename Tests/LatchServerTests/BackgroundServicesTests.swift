import Foundation
import LatchTestSupport
import Testing

/// Issue 29 §2: latchd's background work (delivery, digests, key reload, the revocation listener) runs as
/// swift-service-lifecycle services, shut down gracefully with latchd.
@Suite("Issue 29 §2: background work as services", .serialized, .timeLimit(.minutes(5)))
struct BackgroundServicesTests {
    @Test(
        "29 §2 SIGTERM stops latchd gracefully and loses no queued mail: a code mail in flight to an SMTP server that never answers is released (exit 0), and the next latchd on the same database sends it at once, before the 60 s lease of the first could end"
    )
    func test_29_2_sigtermLosesNoQueuedMail() async throws {
        let silent = try await SMTPSink.start(["--silent"])
        defer { silent.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latchd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = "sqlite://" + folder.appendingPathComponent("latch.sqlite").path
        func smtp(_ port: Int) -> [String: String] {
            ["LATCH_SMTP_URL": "smtp://127.0.0.1:\(port)", "LATCH_MAIL_FROM": "Latch <latch@latch.test>"]
        }

        let first = try await LatchdProcess.start(environment: smtp(silent.port), databaseURL: database, folder: folder)
        let registered = try await first.send(
            "POST", "/v1/registrations",
            json: ["email": "queued@example.com", "password": "Correct-Horse-9", "terms_accepted": true])
        #expect(registered.status == 202, "\(registered)")
        // The worker claims the job at once (woken by the enqueue) and waits on the silent server.
        #expect(try await eventually { silent.connections() >= 1 }, "the worker is waiting on the silent server")
        first.process.terminate()
        let status = await first.process.exited()
        #expect(status == 0, "a graceful stop: \(first.log)")

        let sink = try await SMTPSink.start()
        defer { sink.stop() }
        let started = ContinuousClock.now
        let second = try await LatchdProcess.start(environment: smtp(sink.port), databaseURL: database, folder: folder)
        let arrived = try await eventually(within: .seconds(30)) {
            try sink.messages().contains { $0.rcpt_tos == ["queued@example.com"] }
        }
        let waited = ContinuousClock.now - started
        await second.stop()
        #expect(arrived, "the queued mail was sent by the next latchd")
        #expect(waited < .seconds(45), "released, not left to its lease: \(waited)")
        #expect(try sink.messages().count == 1, "sent once")
    }
}
