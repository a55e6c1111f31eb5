import Logging
import ServiceLifecycle

/// A service run in a group of its own beside the server's (the span exporter), until `flush()` shuts
/// it down gracefully and waits for it, or `stop()` cancels it.
final class RunningService: Sendable {
    private let group: ServiceGroup
    private let task: Task<Void, Never>

    init(_ service: any Service) {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [service], logger: Logger(label: "latchd.tracing")))
        self.group = group
        task = Task { try? await group.run() }
    }

    /// Shuts the service down gracefully (an exporter sends what it holds) and waits until it has stopped.
    func flush() async {
        await group.triggerGracefulShutdown()
        await task.value
    }

    /// Cancels the service if it still runs.
    func stop() { task.cancel() }
}
