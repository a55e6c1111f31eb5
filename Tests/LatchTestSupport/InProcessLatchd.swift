import Foundation
import LatchServer
import Vapor

/// LatchServer inside the test process, served by Vapor's HTTP server on a free loopback port: the one
/// helper that boots it for the server tests (`TestServer`, `DeliveryTestServer`, an app mounting
/// LatchServer) and the end-to-end tests (`LiveServer`). Tests that need the real binary (kill -9,
/// restarts, `latchd admin`, the CLI) use `LatchdProcess`.
///
/// ```swift
/// let config = LatchConfig(database: .sqlite(path: …), port: 0, issuer: "http://latch.test",
///                          secretKey: Data(repeating: 7, count: 32), bcryptCost: 4, logRequests: false)
/// let server = try await InProcessLatchd.start(config, clock: clock.latchClock) { app in
///     app.get("extra") { _ in "a route of the embedding app" }   // after configure, before serving
/// }
/// try await server.stop()
/// ```
public struct InProcessLatchd: Sendable {
    /// The Latch application served (`app.latch`, `app.db`, its metrics and sign-in services).
    public var app: LatchApplication { vapor.latchApplication }
    /// The Vapor application that serves it (its routes, its HTTP client) until the Hummingbird edge
    /// replaces it (issue 29 §2).
    public let vapor: Application
    /// `http://127.0.0.1:PORT`, to append paths to.
    public let baseURL: String

    /// `baseURL` as a URL.
    public var url: URL { URL(string: baseURL)! }

    public enum StartError: Error { case noPort }

    /// Makes an application (environment `.testing`), configures LatchServer with `config` and `clock`, runs `addRoutes` (routes of
    /// an app that mounts LatchServer), and starts serving on 127.0.0.1 on a port the kernel picks
    /// (`config.port` is ignored). On any failure the application is shut down before the error is thrown.
    public static func start(
        _ config: LatchConfig, clock: LatchClock = .system,
        addRoutes: (Application) throws -> Void = { _ in }
    ) async throws -> InProcessLatchd {
        let app = try await Application.make(.testing)
        do {
            try await configure(app, config, clock: clock)
            try addRoutes(app)
            // Boots as `latchd serve` does: the background services (issue 29 §2) start here.
            try await app.asyncBoot()
            app.http.server.configuration.port = 0
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            guard let port = app.http.server.shared.localAddress?.port else { throw StartError.noPort }
            return InProcessLatchd(vapor: app, baseURL: "http://127.0.0.1:\(port)")
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    /// Stops serving and shuts the application down (database, queues, event loops).
    public func stop() async throws {
        await vapor.server.shutdown()
        try await vapor.asyncShutdown()
    }
}
