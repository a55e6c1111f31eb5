import Vapor

extension Application {
    /// Stops the server gracefully: it takes no new connection, the requests in flight finish (for
    /// at most `LATCH_SHUTDOWN_GRACE_SECONDS`), then the metrics listener stops. latchd calls it when
    /// SIGTERM ends `execute()`, before `asyncShutdown()` stops the pools and queues those requests
    /// use (Vapor's own shutdown stops them first, and drains the server only afterwards).
    public func stopServingGracefully() async {
        await server.shutdown()
    }
}
