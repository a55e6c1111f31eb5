import Foundation
import Synchronization
import Vapor

/// A background loop of latchd: runs `round` every `interval` while the application serves (first
/// after one interval), logs a failed round as a warning naming only the error's type, and ends with
/// the application.
final class PeriodicTask: LifecycleHandler, Sendable {
    let interval: Duration
    /// What a failed round's warning calls this task.
    let name: String
    private let round: @Sendable (Application) async throws -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(every interval: Duration, name: String, round: @escaping @Sendable (Application) async throws -> Void) {
        self.interval = interval
        self.name = name
        self.round = round
    }

    func didBootAsync(_ application: Application) async throws {
        let (interval, name, round) = (self.interval, self.name, self.round)
        task.withLock { running in
            running = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard !Task.isCancelled else { return }
                    do {
                        try await round(application)
                    } catch {
                        application.logger.warning(
                            "\(name) failed this round: \(String(reflecting: type(of: error)))")
                    }
                }
            }
        }
    }

    func shutdownAsync(_ application: Application) async {
        let running = task.withLock { running in
            defer { running = nil }
            return running
        }
        running?.cancel()
        await running?.value
    }
}
