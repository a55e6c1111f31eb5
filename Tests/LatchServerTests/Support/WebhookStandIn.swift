import Foundation
import HTTPTypes
import Hummingbird
import LatchTestSupport
import NIOFoundationCompat
import Synchronization

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

    let server: StandInServer
    let url: String
    private let recorder: Recorder

    /// Starts the stand-in; with `gate`, each request is recorded, then answered only once the gate is open.
    static func start(answering statuses: [UInt] = [], holdingAnswersAt gate: TestGate? = nil) async throws
        -> WebhookStandIn
    {
        let recorder = Recorder(statuses: statuses)
        let router = Router()
        router.post("sms") { req, _ -> Response in
            let body = (try? await req.bodyBytes()).map { Data(buffer: $0) } ?? Data()
            let json = (try? JSONDecoder().decode([String: String].self, from: body)) ?? [:]
            recorder.received.withLock {
                $0.append(Received(contentType: req.headers[values: .contentType].first, json: json))
            }
            await gate?.enterAndWait()
            let status = recorder.statuses.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
            return Response(status: HTTPResponse.Status(code: Int(status)))
        }
        let server = try await StandInServer.start(router)
        return WebhookStandIn(
            server: server, url: "http://127.0.0.1:\(server.port)/sms?token=s3cret", recorder: recorder)
    }

    private init(server: StandInServer, url: String, recorder: Recorder) {
        self.server = server
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
        await server.stop()
    }
}
