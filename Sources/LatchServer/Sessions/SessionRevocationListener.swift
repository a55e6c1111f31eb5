import FluentPostgresDriver
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// On PostgreSQL, hears the sessions that any latchd sharing the database revokes (the NOTIFY of
/// `CreateSessionRevocationNotice`) and marks them in this instance's status cache at once, so a
/// revoked session is refused everywhere within a fraction of a second instead of within the 5 s
/// recheck of `SessionStatusCache` (which stays as the fallback).
///
/// It holds one connection of its own (LISTEN needs a connection that is not returned to a pool).
/// A lost connection is reopened after `reconnectDelay`; after every (re)connection the cache's
/// live entries are read again on their next use, since notifications sent meanwhile were missed.
/// The graceful shutdown of its service group ends it (`stop`), so it never keeps latchd from stopping.
final class SessionRevocationListener: Service, Sendable {
    static let channel = "latch_session_revoked"
    /// The listening connection's `application_name` (followed by the schema, when one is chosen).
    static let applicationName = "latch-revocation-listener"
    static let reconnectDelay: Duration = .seconds(1)

    private let configuration: PostgresConnection.Configuration
    private let status: SessionStatusCache
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var task: Task<Void, Never>?
        var connection: PostgresConnection?
        var stopped = false
    }

    init(
        configuration: PostgresConnection.Configuration, status: SessionStatusCache, eventLoopGroup: any EventLoopGroup,
        logger: Logger
    ) {
        self.configuration = configuration
        self.status = status
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Starts listening in the background.
    func start() {
        let task = Task { await self.listenUntilStopped() }
        state.withLock { $0.task = task }
    }

    /// As a service (issue 29 §2): listens until the group's graceful shutdown.
    func run() async throws {
        start()
        try? await gracefulShutdown()
        await stop()
    }

    /// Stops listening: closes the connection and waits for the background task to end.
    func stop() async {
        let (task, connection) = state.withLock { state in
            state.stopped = true
            return (state.task, state.connection)
        }
        task?.cancel()
        try? await connection?.close()
        await task?.value
    }

    /// Marks every notified session revoked until the connection ends. The handler runs on the
    /// connection's event loop as each notification arrives (no hop through the task pool, which a
    /// busy instance may keep waiting).
    private func listen(on connection: PostgresConnection) async throws {
        let status = self.status
        let listening = connection.addListener(channel: Self.channel) { _, notification in
            guard let id = UUID(uuidString: notification.payload) else { return }
            status.noteRevokedElsewhere(id)
        }
        defer { listening.stop() }
        // Queries run in order: once this answers, LISTEN is in force. Anything revoked while no
        // connection listened was not heard, so live entries are read again from here on.
        for try await _ in try await connection.query("SELECT 1", logger: logger) {}
        status.recheckAll()
        try await connection.closeFuture.get()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } || Task.isCancelled }

    private func listenUntilStopped() async {
        var attempt = 0
        while !isStopped {
            attempt += 1
            do {
                let connection = try await PostgresConnection.connect(
                    on: eventLoopGroup.any(), configuration: configuration, id: attempt, logger: logger)
                let keep = state.withLock { state in
                    if state.stopped { return false }
                    state.connection = connection
                    return true
                }
                do {
                    if keep { try await listen(on: connection) }
                } catch {
                    // Closed below; a connection must always be closed before it is released.
                    if !isStopped {
                        logger.warning(
                            "session revocation listener lost its PostgreSQL connection; reconnecting (revocations by other instances fall back to the 5 s recheck meanwhile)"
                        )
                    }
                }
                state.withLock { $0.connection = nil }
                try? await connection.close()
            } catch {
                if !isStopped { logger.warning("session revocation listener cannot connect to PostgreSQL; retrying") }
            }
            if isStopped { return }
            try? await Task.sleep(for: Self.reconnectDelay)
        }
    }
}
