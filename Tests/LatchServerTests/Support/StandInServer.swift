import Hummingbird
import Logging
import ServiceLifecycle

/// A stand-in for an outside service (Apple, WeChat, an SMS gateway): a Hummingbird application serving
/// `router` on a free loopback port until `stop()`.
final class StandInServer: Sendable {
    let port: Int
    private let group: ServiceGroup
    private let running: Task<Void, Never>

    private init(port: Int, group: ServiceGroup, running: Task<Void, Never>) {
        self.port = port
        self.group = group
        self.running = running
    }

    static func start(_ router: Router<BasicRequestContext>) async throws -> StandInServer {
        var logger = Logger(label: "stand-in")
        logger.logLevel = .warning
        let (ports, bound) = AsyncStream<Int?>.makeStream()
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                bound.yield(channel.localAddress?.port)
                bound.finish()
            }, logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: logger))
        let running = Task {
            defer { bound.finish() }
            try? await group.run()
        }
        var waiting = ports.makeAsyncIterator()
        guard let port = await waiting.next() ?? nil else {
            await group.triggerGracefulShutdown()
            await running.value
            throw TestServer.TestServerError.noPort
        }
        return StandInServer(port: port, group: group, running: running)
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        await running.value
    }
}

extension Request {
    /// The body, read whole (at most 1 MiB).
    func bodyBytes() async throws -> ByteBuffer {
        var request = self
        return try await request.collectBody(upTo: 1 << 20)
    }

    /// A form-encoded body (`application/x-www-form-urlencoded`) as a dictionary.
    func form() async throws -> [String: String] {
        try URLEncodedFormDecoder().decode([String: String].self, from: String(buffer: try await bodyBytes()))
    }

    /// The query's parameters, percent-decoded (the last of repeated keys).
    var queryDictionary: [String: String] {
        Dictionary(uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { $1 })
    }
}
