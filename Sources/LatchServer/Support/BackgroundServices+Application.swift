import Logging
import ServiceLifecycle
import Synchronization
import Vapor

/// latchd's background services (issue 29 §2: delivery, notice digests, Apple revocation retries, the
/// signing-key reload, the revocation listener, bcrypt's threads), run as one swift-service-lifecycle
/// `ServiceGroup` for as long as the Vapor application runs: started when it boots, shut down gracefully
/// (in reverse order of `add`) when it stops. The services know nothing of the web framework.
final class BackgroundServices: LifecycleHandler, Sendable {
    private let services = Mutex<[ServiceGroupConfiguration.ServiceConfiguration]>([])
    private let running = Mutex<(group: ServiceGroup, task: Task<Void, Never>)?>(nil)
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Adds `service`, named `name` in the group's logs; it starts when the application boots.
    func add(_ service: any Service, name: String) {
        services.withLock { $0.append(.init(service: service, serviceName: name)) }
    }

    func didBootAsync(_ application: Application) async throws {
        let configuration = ServiceGroupConfiguration(services: services.withLock { $0 }, logger: logger)
        let group = ServiceGroup(configuration: configuration)
        let logger = logger
        let task = Task {
            do {
                try await group.run()
            } catch {
                logger.error("background services stopped: \(String(reflecting: type(of: error)))")
            }
        }
        running.withLock { $0 = (group, task) }
    }

    func shutdownAsync(_ application: Application) async {
        guard let (group, task) = running.withLock({ $0 }) else { return }
        await group.triggerGracefulShutdown()
        await task.value
    }
}

extension Application {
    private struct BackgroundServicesKey: StorageKey { typealias Value = BackgroundServices }

    /// The background services, run with the application (added by `configure(_:_:)`).
    var backgroundServices: BackgroundServices {
        if let services = storage[BackgroundServicesKey.self] { return services }
        let services = BackgroundServices(logger: logger)
        storage[BackgroundServicesKey.self] = services
        lifecycle.use(services)
        return services
    }
}
