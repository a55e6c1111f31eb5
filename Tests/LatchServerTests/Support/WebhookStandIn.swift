import Foundation
import LatchTestSupport
import NIOFoundationCompat
import Synchronization
import Vapor

/// A stand-in SMS gateway on a loopback port: records every `POST /sms` and answers the statuses
/// it was given, in order (200 once they run out).
final class WebhookStandIn: Sendable {
    struct Received: Sendable {
        let contentType: String?
        let json: [String: String]
    }

    final class Recorder: Sendable {
        let received = Mutex<[Received]>([])
        let statuses: Mutex<[UInt]>
        init(statuses: [UInt]) { self.statuses = Mutex(statuses) }
    }

    let app: Application
    let url: String
    private let recorder: Recorder

    /// Starts the stand-in; with `gate`, each request is recorded, then answered only once the gate is open.
    static func start(answering statuses: [UInt] = [], holdingAnswersAt gate: TestGate? = nil) async throws
        -> WebhookStandIn
    {
        let recorder = Recorder(statuses: statuses)
        let app = try await Application.make(.testing)
        app.post("sms") { req async -> Response in
            let body = req.body.data.map { Data(buffer: $0) } ?? Data()
            let json = (try? JSONDecoder().decode([String: String].self, from: body)) ?? [:]
            recorder.received.withLock {
                $0.append(Received(contentType: req.headers.first(name: .contentType), json: json))
            }
            await gate?.enterAndWait()
            let status = recorder.statuses.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
            return Response(status: HTTPResponseStatus(statusCode: Int(status)))
        }
        do {
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        guard let port = app.http.server.shared.localAddress?.port else { throw TestServer.TestServerError.noPort }
        return WebhookStandIn(app: app, url: "http://127.0.0.1:\(port)/sms?token=s3cret", recorder: recorder)
    }

    private init(app: Application, url: String, recorder: Recorder) {
        self.app = app
        self.url = url
        self.recorder = recorder
    }

    var received: [Received] { recorder.received.withLock { $0 } }

    /// Waits (`eventually`: long enough for any machine load) until `count` requests have arrived.
    func waitForRequests(_ count: Int) async throws -> [Received] {
        _ = try await eventually(every: .milliseconds(25)) { received.count >= count }
        return received
    }

    func stop() async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }
}
