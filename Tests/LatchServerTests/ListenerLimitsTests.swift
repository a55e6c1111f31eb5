import Foundation
import NIOCore
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
        private(set) var channel: (any Channel)?

        init(closed: EventLoopPromise<Void>) { self.closed = closed }

        private let closedFlag = Mutex(false)

        /// Whether the server has closed it by now.
        var isClosedNow: Bool { closedFlag.withLock { $0 } }

        func channelInactive(context: ChannelHandlerContext) {
            closedFlag.withLock { $0 = true }
            closed.succeed(())
            context.fireChannelInactive()
        }

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

        /// Whether the server closed the connection within `seconds`.
        func isClosed(within seconds: Double) async -> Bool {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { (try? await self.closed.futureResult.get()) != nil }
                group.addTask {
                    try? await Task.sleep(for: .seconds(seconds))
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
        }

        func close() async { try? await channel?.close() }
    }

    @Test("review_10 the API listener closes a connection that sends nothing for LATCH_IDLE_TIMEOUT_SECONDS")
    func review_10_apiListenerClosesIdleConnections() async throws {
        try await withServer(.sqlite, adjust: { $0.idleTimeoutSeconds = 1 }) { server in
            let port = try #require(URL(string: server.baseURL)?.port)
            let idle = try await SilentConnection.open(port: port)

            let closedEarly = await idle.isClosed(within: 0.3)
            let closed = await idle.isClosed(within: 5)

            #expect(!closedEarly, "not at once")
            #expect(closed, "closed after about a second of silence")
            #expect(try await server.send(.GET, "/health").status == 200, "the listener still serves")
        }
    }

    @Test("review_10 the metrics listener closes idle connections and closes at once a connection beyond its maximum")
    func review_10_metricsListenerLimitsConnections() async throws {
        try await withServer(
            .sqlite,
            adjust: {
                $0.metricsPort = 0
                $0.metricsIdleTimeoutSeconds = 5
                $0.metricsMaximumConnections = 3
            }
        ) { server in
            let port = try #require(server.app.metricsPort)
            // Four at once: the server admits three, in whatever order it accepts them, and closes the fourth.
            var connections: [SilentConnection] = []
            for _ in 0..<4 { connections.append(try await SilentConnection.open(port: port)) }

            // Wait (well before the idle timeout) until the server closed one: on a loaded machine it
            // may take a moment to accept them.
            let started = ContinuousClock.now
            var closedAtOnce: [Bool] = []
            repeat {
                try await Task.sleep(for: .milliseconds(50))
                closedAtOnce = connections.map(\.isClosedNow)
            } while !closedAtOnce.contains(true) && ContinuousClock.now - started < .seconds(3)
            var closedByIdle: [Bool] = []
            for connection in connections { closedByIdle.append(await connection.isClosed(within: 10)) }
            // Once they are gone, a scrape gets through again (`scrape` requires a 200).
            _ = try await server.scrape()

            #expect(closedAtOnce.filter { $0 }.count == 1, "one of four is closed at once: \(closedAtOnce)")
            #expect(closedByIdle == [true, true, true, true], "the three admitted close after five seconds idle")
        }
    }

    @Test("review_10 LATCH_IDLE_TIMEOUT_SECONDS: default 90, 1–3600, a bad value names the variable")
    func review_10_idleTimeoutConfiguration() throws {
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
