import LatchServer
import Logging
import Vapor

/// The LatchServer application an operator's command works on (`latchd admin …`, `latchd keys …`):
/// latchd's configuration and database, migrated as at start, without background work (no delivery
/// worker, no key reload: the mails a command queues are rows of the durable delivery queue, which the
/// serving latchd sends). Logs only warnings and worse, on standard error, so that standard output
/// carries the command's output alone.
enum ConsoleApplication {
    /// Runs `body` on the configured application, then shuts it down. A configuration error is a
    /// `LatchdFailure` (exit status 2); any other error is thrown as it is.
    static func run<Output>(_ body: (Application) async throws -> Output) async throws -> Output {
        var config = try LatchConfig.forCommand()
        config.runsBackgroundTasks = false
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        let app = try await Application.make(Environment(name: config.mode.rawValue, arguments: ["latchd"]))
        do {
            try await configure(app, config)
            let output = try await body(app)
            try? await app.asyncShutdown()
            return output
        } catch let error as ConfigurationError {
            try? await app.asyncShutdown()
            throw LatchdFailure.configuration(error)
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }
}
