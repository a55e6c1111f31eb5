import Foundation
import LatchTestSupport
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Testing

@testable import LatchServer

/// Issue 20 §10: the API and metrics listeners close idle connections, and the metrics listener caps
/// how many are open, so nobody holds them open by the thousand.
@Suite("Listeners close idle connections and cap them (issue 20 §10)")
struct ListenerLimitsTests {
    /// A TCP connection that sends nothing and notes when the server closes it.
    final class SilentConnection: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let closed: EventLoopPromise<Void>
        private let closedFlag = Mutex(false)
        private(set) var channel: (any Channel)?

        init(closed: EventLoopPromise<Void>) { self.closed = closed }

        func channelInactive(context: ChannelHandlerContext) {
            closedFlag.withLock { $0 = true }
            closed.succeed(())
            context.fireChannelInactive()
        }

        /// Whether the server has closed it by now.
        var isClosedNow: Bool { closedFlag.withLock { $0 } }

        /// Opens a connection to `127.0.0.1:port`.
        static func open(port: Int) async throws -> SilentConnection {
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            let handler = SilentConnection(closed: loop.makePromise())
            handler.channel = try await ClientBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
                }
                .connect(host: "127.0.0.1", port: port).get()
            return handler
        }

        /// Whether the server closes the connection within `seconds`: answers as soon as it closes, or
        /// `false` when the time is up (the wait for the close is not left running).
        func isClosed(within seconds: Double) async -> Bool {
            let loop = closed.futureResult.eventLoop
            let answer = loop.makePromise(of: Bool.self)
            let once = Mutex(false)
            @Sendable func settle(_ value: Bool) {
                if once.withLock({ fired in
                    defer { fired = true }; return !fired
                }) {
                    answer.succeed(value)
                }
            }
            closed.futureResult.whenComplete { _ in settle(true) }
            let timer = loop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) { settle(false) }
            let result = (try? await answer.futureResult.get()) ?? false
            timer.cancel()
            return result
        }

        func close() async { try? await channel?.close() }
    }

    @Test("review_10 the API listener closes a connection that sends nothing for LATCH_IDLE_TIMEOUT_SECONDS")
    func test_20_10_apiListenerClosesIdleConnections() async throws {
        try await withServer(.sqlite, adjust: { $0.idleTimeoutSeconds = 1 }) { server in
            let port = try #require(URL(string: server.baseURL)?.port)
            let opened = ContinuousClock.now
            let idle = try await SilentConnection.open(port: port)

            // Closed once a second of silence has passed; the limit only turns "never" into a failure.
            let closed = await idle.isClosed(within: 120)
            let waited = ContinuousClock.now - opened

            #expect(closed, "closed after the idle timeout")
            // A lower bound only: a busy machine can make the close later, never earlier.
            #expect(waited >= .milliseconds(900), "not before the idle timeout: \(waited)")
            // A fresh connection that a loaded machine leaves silent for the idle timeout is closed too
            // (ECONNRESET), which is the rule under test, so "still serves" means: a request gets through.
            let served = try await eventually { (try? await server.send(.GET, "/health"))?.status == 200 }
            #expect(served, "the listener still serves")
        }
    }

    @Test("review_10 the metrics listener closes idle connections and closes at once a connection beyond its maximum")
    func test_20_10_metricsListenerLimitsConnections() async throws {
        // The cap: idle connections are kept for an hour here, so the only close is the one beyond the maximum.
        try await withServer(
            .sqlite,
            adjust: {
                $0.metricsPort = 0
                $0.metricsIdleTimeoutSeconds = 3600
                $0.metricsMaximumConnections = 3
            }
        ) { server in
            let port = try #require(server.app.metricsPort)
            var connections: [SilentConnection] = []
            for _ in 0..<4 { connections.append(try await SilentConnection.open(port: port)) }
            let list = connections

            let oneClosed = try await eventually { list.filter(\.isClosedNow).count == 1 }
            #expect(oneClosed, "one of four is closed at once (the server admits three, in whatever order)")
            #expect(list.filter(\.isClosedNow).count == 1, "and only one")
            for connection in list { await connection.close() }
            // Once they are gone, a scrape gets through again.
            let scraped = try await eventually {
                (try? await TestHTTP.get("http://127.0.0.1:\(port)/metrics"))?.status == .ok
            }
            #expect(scraped, "a scrape is served once the connections are gone")
        }
        // Idle: an admitted connection that sends nothing is closed after the idle timeout.
        try await withServer(
            .sqlite,
            adjust: {
                $0.metricsPort = 0
                $0.metricsIdleTimeoutSeconds = 1
                $0.metricsMaximumConnections = 3
            }
        ) { server in
            let port = try #require(server.app.metricsPort)
            let idle = try await SilentConnection.open(port: port)
            #expect(await idle.isClosed(within: 120), "closed after a second of silence")
        }
    }

    @Test("review_10 LATCH_IDLE_TIMEOUT_SECONDS: default 90, 1–3600, a bad value names the variable")
    func test_20_10_idleTimeoutConfiguration() throws {
        let base = ["LATCH_SECRET_KEY": Data(repeating: 1, count: 32).base64EncodedString()]
        #expect(try LatchConfig.fromEnvironment(base).idleTimeoutSeconds == 90)
        #expect(
            try LatchConfig.fromEnvironment(base.merging(["LATCH_IDLE_TIMEOUT_SECONDS": "30"]) { $1 })
                .idleTimeoutSeconds
                == 30)
        for bad in ["0", "3601", "x"] {
            do {
                _ = try LatchConfig.fromEnvironment(base.merging(["LATCH_IDLE_TIMEOUT_SECONDS": bad]) { $1 })
                Issue.record("\(bad) was accepted")
            } catch let error as ConfigurationError {
                #expect(error.variable == "LATCH_IDLE_TIMEOUT_SECONDS")
            }
        }
    }
}
