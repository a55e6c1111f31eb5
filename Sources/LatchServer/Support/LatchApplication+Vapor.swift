import FluentKit
import ServiceLifecycle
import Synchronization
import Vapor

/// The Vapor edge's hold on the `LatchApplication` it serves (issue 29 §2: until the Hummingbird edge
/// replaces it): stored on the Vapor `Application`, run while it runs (started when it boots, shut down
/// gracefully when it stops) and shut down with it.
final class LatchApplicationLifecycle: LifecycleHandler, Sendable {
    let latch: LatchApplication
    private let running = Mutex<(group: ServiceGroup, task: Task<Void, Never>)?>(nil)

    init(latch: LatchApplication) {
        self.latch = latch
    }

    func didBootAsync(_ application: Application) async throws {
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [latch], logger: latch.logger))
        let task = Task<Void, Never> { try? await group.run() }
        running.withLock { $0 = (group, task) }
    }

    func shutdownAsync(_ application: Application) async {
        if let (group, task) = running.withLock({ $0 }) {
            await group.triggerGracefulShutdown()
            await task.value
        }
        await latch.shutdown()
    }
}

extension Application {
    private struct LatchApplicationKey: StorageKey { typealias Value = LatchApplicationLifecycle }

    /// The Latch application this Vapor application serves; set by `configure(_:_:)`.
    public var latchApplication: LatchApplication {
        get {
            guard let lifecycle = storage[LatchApplicationKey.self] else {
                preconditionFailure("configure(_:_:) sets app.latchApplication before any route runs")
            }
            return lifecycle.latch
        }
        set {
            let lifecycle = LatchApplicationLifecycle(latch: newValue)
            storage[LatchApplicationKey.self] = lifecycle
            self.lifecycle.use(lifecycle)
        }
    }

    /// Latch's services.
    public var latch: LatchServices { latchApplication.latch }
    /// The database, on any event loop.
    public var db: any Database { latchApplication.db }
    /// This app's metrics.
    var latchMetrics: LatchMetrics { latchApplication.latchMetrics }
}

extension Request {
    /// Latch's services.
    public var latch: LatchServices { application.latch }
    /// The database on this request's event loop, logging to its logger.
    public var db: any Database { application.latchApplication.db(on: eventLoop, logger: logger) }
    /// The Apple, WeChat and phone sign-in services.
    var identityServices: IdentityServices { application.latchApplication.identityServices }
    /// The app's metrics.
    var latchMetrics: LatchMetrics { application.latchApplication.latchMetrics }
}
