import NIOPosix
import Vapor

/// Stops a thread pool of Latch's own when the application shuts down.
struct ThreadPoolShutdown: LifecycleHandler {
    let pool: NIOThreadPool

    func shutdownAsync(_ application: Application) async {
        try? await pool.shutdownGracefully()
    }
}
