import Foundation
import LatchClient
import LatchCore
import LatchServer
import LatchTestSupport
import Synchronization
import Testing

/// A real latchd (LatchServer on Hummingbird's HTTP server, started by `InProcessLatchd`) on a loopback port
/// with SQLite in a temporary folder, its clock in the test's hands, and LatchClients that talk to it
/// over real HTTP.
final class LiveServer: Sendable {
    /// The server's and its clients' clock.
    let clock = TestClock()

    static func start(adjust: (inout LatchConfig) -> Void = { _ in }) async throws -> LiveServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = LiveServer()
        var config = LatchConfig(
            database: .sqlite(path: folder.appendingPathComponent("latch.sqlite").path), port: 0,
            issuer: "http://latch.e2e", secretKey: Data(repeating: 3, count: 32), bcryptCost: 4, logRequests: false)
        // The clock is the test's and stands still between steps, so buckets would never refill.
        config.rateLimits = RateLimits.standard.scaled(by: 1000)
        config.useLoadIndependentLimits()
        adjust(&config)
        let started = try await InProcessLatchd.start(config, clock: server.clock.latchClock)
        server.started.withLock { $0 = started }
        return server
    }

    /// The running server (set once it started).
    private let started = Mutex<InProcessLatchd?>(nil)

    private init() {}

    /// The application LatchServer runs on.
    var app: LatchApplication { started.withLock { $0 }!.app }
    /// Where the server listens (set once it started).
    var serverURL: URL { started.withLock { $0 }?.url ?? URL(fileURLWithPath: "/not-started") }
    var now: Date { clock.now }
    func advance(by seconds: TimeInterval) { clock.advance(by: seconds) }

    func stop() async throws { try await started.withLock { $0 }?.stop() }

    /// A client of this server with its own vault, on the same clock.
    /// With `dpop`, its sessions are bound to a software DPoP key in the vault (issue 31).
    func client(vault: InMemoryVault = InMemoryVault(), dpop: Bool = false) -> LatchClient {
        LatchClient(
            serverURL: serverURL, vault: vault, clock: clock.read,
            dpopKeys: dpop ? SoftwareDPoPKeyStore(vault: vault) : nil)
    }

    /// The latest code mailed to `address`.
    func latestCode(to address: String) async throws -> String {
        let messages = await app.latch.outbox?.messages(to: address) ?? []
        return try #require(messages.last(where: { $0.code != nil })?.code)
    }
}

/// Runs `body` with a live server, stopping it afterwards.
func withLiveServer(
    adjust: (inout LatchConfig) -> Void = { _ in }, _ body: (LiveServer) async throws -> Void
) async throws {
    let server = try await LiveServer.start(adjust: adjust)
    do {
        try await body(server)
    } catch {
        try? await server.stop()
        throw error
    }
    try await server.stop()
}
