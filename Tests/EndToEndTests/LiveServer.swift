import Foundation
import LatchClient
import LatchCore
import LatchServer
import Synchronization
import Testing
import Vapor

/// A real latchd (LatchServer on Vapor's HTTP server) on a loopback port with SQLite in a temporary
/// folder, its clock in the test's hands, and LatchClients that talk to it over real HTTP.
final class LiveServer: Sendable {
    let app: Application
    private let time: Mutex<Date>

    static func start() async throws -> LiveServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let app = try await Application.make(.testing)
        let server = LiveServer(app: app)
        do {
            var config = LatchConfig(
                database: .sqlite(path: folder.appendingPathComponent("latch.sqlite").path), port: 0,
                issuer: "http://latch.e2e", secretKey: Data(repeating: 3, count: 32), bcryptCost: 4, logRequests: false)
            // The clock is the test's and stands still between steps, so buckets would never refill.
            config.rateLimits = RateLimits.standard.scaled(by: 1000)
            try await configure(app, config, clock: LatchClock { [server] in server.now })
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            guard let port = app.http.server.shared.localAddress?.port else { throw LiveServerError.noPort }
            server.setURL(URL(string: "http://127.0.0.1:\(port)")!)
            return server
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    private let baseURL = Mutex<URL?>(nil)
    private func setURL(_ url: URL) { baseURL.withLock { $0 = url } }

    private init(app: Application) {
        self.app = app
        self.time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    }

    /// Where the server listens (set once it started).
    var serverURL: URL { baseURL.withLock { $0 } ?? URL(fileURLWithPath: "/not-started") }
    var now: Date { time.withLock { $0 } }
    func advance(by seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }

    func stop() async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    /// A client of this server with its own vault, on the same clock.
    func client(vault: InMemoryVault = InMemoryVault()) -> LatchClient {
        LatchClient(serverURL: serverURL, vault: vault, clock: { [self] in self.now })
    }

    /// The latest code mailed to `address`.
    func latestCode(to address: String) async throws -> String {
        let messages = await app.latch.outbox?.messages(to: address) ?? []
        return try #require(messages.last(where: { $0.code != nil })?.code)
    }

    enum LiveServerError: Error { case noPort }
}

/// Runs `body` with a live server, stopping it afterwards.
func withLiveServer(_ body: (LiveServer) async throws -> Void) async throws {
    let server = try await LiveServer.start()
    do {
        try await body(server)
    } catch {
        try? await server.stop()
        throw error
    }
    try await server.stop()
}
