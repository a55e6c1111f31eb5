import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// Hummingbird's HTTP/1 child channel with latchd's limits in front (issue 41 §3 E-X1): a connection
/// beyond `ConnectionLimits` (in total, or from its address) is closed as soon as it is accepted, before
/// any handler is added, and an admitted one gets `RequestDeadlineHandler` (head and body deadlines).
///
/// Setting a connection up never fails: NIO (2.101) drops a child whose set-up failed without closing it,
/// so its descriptor would stay open (and counted) for good. A refused or failed connection is closed here
/// and handed on with `http == nil`, which `handle` skips.
struct GuardedHTTP1Channel: ServerChildChannel {
    /// An accepted connection: served, or already closed.
    struct Connection: ServerChildChannelValue {
        let channel: any Channel
        /// nil: refused or failed at set-up (closed).
        let http: HTTP1Channel.Value?
    }

    let http: HTTP1Channel
    let limits: ConnectionLimits
    let counter: ConnectionCounter
    let refusals: RefusalLog

    /// The key a peer address counts under for the per-address cap (nil: in the total only).
    let clientKey: @Sendable (String) -> String?

    /// - Parameter clientKey: whom a peer address counts as (`ConnectionLimits.clientKey(trusting:)`).
    init(
        http: HTTP1Channel, limits: ConnectionLimits, clientKey: @escaping @Sendable (String) -> String?,
        logger: Logger
    ) {
        self.http = http
        self.limits = limits
        self.clientKey = clientKey
        counter = ConnectionCounter(
            maximum: limits.maximumConnections, maximumPerAddress: limits.maximumConnectionsPerAddress)
        refusals = RefusalLog(logger: logger)
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Connection> {
        let address = channel.remoteAddress?.ipAddress.flatMap(clientKey)
        switch counter.admit(address) {
        case .admitted:
            break
        case .overTotal, .overAddress:
            refusals.refused(address: address, counter: counter, limits: limits)
            channel.close(promise: nil)
            return channel.eventLoop.makeSucceededFuture(Connection(channel: channel, http: nil))
        }
        let counter = counter
        channel.closeFuture.whenComplete { _ in counter.release(address) }
        let limits = limits
        let http = http
        return channel.eventLoop.makeCompletedFuture {
            let deadlines = RequestDeadlineHandler(
                headerTimeout: limits.headerTimeout, bodyTimeout: limits.bodyTimeout, logger: logger)
            try channel.pipeline.syncOperations.addHandler(deadlines, position: .first)
        }.flatMap {
            http.setup(channel: channel, logger: logger).flatMapThrowing { value in
                // Right after the decoder and Latch's `additionalChannelHandlers`, before Hummingbird's own.
                let operations = channel.pipeline.syncOperations
                let deadlines = try operations.handler(type: RequestDeadlineHandler.self)
                let state = try operations.handler(type: HTTPConnectionStateHandler.self)
                try operations.addHandler(RequestProgressHandler(reportingTo: deadlines), position: .before(state))
                return Connection(channel: channel, http: value)
            }
        }.flatMapErrorThrowing { error in
            logger.debug("connection closed at set-up", metadata: ["error": "\(error)"])
            channel.close(promise: nil)
            return Connection(channel: channel, http: nil)
        }
    }

    func handle(value: Connection, logger: Logger) async {
        guard let connection = value.http else { return }
        await http.handle(value: connection, logger: logger)
    }
}

/// Logs refused connections without a line per refusal (a flood would write thousands): the first
/// refusal, then at most one summary every 10 seconds while refusals go on.
final class RefusalLog: Sendable {
    private let logger: Logger
    private let state = Mutex<(lastLogged: NIODeadline?, unlogged: Int)>((nil, 0))

    init(logger: Logger) { self.logger = logger }

    func refused(address: String?, counter: ConnectionCounter, limits: ConnectionLimits) {
        let now = NIODeadline.now()
        let due: Int? = state.withLock { state in
            state.unlogged += 1
            if let last = state.lastLogged, now - last < .seconds(10) { return nil }
            defer { state = (now, 0) }
            return state.unlogged
        }
        guard let due else { return }
        let open = counter.open(from: address)
        logger.warning(
            "connections refused: the connection limit is reached",
            metadata: [
                "refused": "\(due)", "peer": "\(address ?? "unknown")", "open": "\(open.total)",
                "open_from_peer": "\(open.fromAddress)", "maximum": "\(limits.maximumConnections)",
                "maximum_per_address": "\(limits.maximumConnectionsPerAddress)"
            ])
    }
}
