import NIOPosix
import ServiceLifecycle

/// A thread pool of latchd's own (bcrypt's), stopped at the graceful shutdown of its service group
/// (issue 29 §2). Listed first among the services, so it stops after every other.
struct ThreadPoolService: Service {
    let pool: NIOThreadPool

    func run() async throws {
        try? await gracefulShutdown()
        try? await pool.shutdownGracefully()
    }
}
