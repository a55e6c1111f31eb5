import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

/// The HTTP edge of `latchd events-receiver`: every `POST` (any path) goes to `DevelopmentReceiver`, its
/// line to stdout (flushed, so a pipe sees it at once); until SIGINT or SIGTERM.
struct DevelopmentReceiverServer {
    let receiver: DevelopmentReceiver
    let host: String
    let port: Int

    /// Bodies larger than this are refused unread (latchd's are far smaller).
    static let bodyLimit = 1 << 20

    func run() async throws {
        var logger = Logger(label: "latchd.events-receiver")
        logger.logLevel = .warning
        let receiver = receiver
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            guard request.method == .post else { return Response(status: .methodNotAllowed) }
            let body = try await request.body.collect(upTo: Self.bodyLimit)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let outcome = await receiver.receive(body: Data(body.readableBytesView), headers: headers, now: Date())
            Self.print(outcome.line)
            return Response(status: HTTPResponse.Status(code: outcome.status))
        }
        let host = host
        let app = Application(
            responder: responder, configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                Self.print("events-receiver listening on http://\(host):\(channel.localAddress?.port ?? 0)")
            }, logger: logger)
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    private static func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
