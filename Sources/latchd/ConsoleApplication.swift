import LatchServer
import Logging

/// The LatchServer application an operator's command works on (`latchd admin …`, `latchd keys …`):
/// latchd's configuration and database, migrated as at start, without background work (no delivery
/// worker, no key reload: the mails a command queues are rows of the durable delivery queue, which the
/// serving latchd sends). Logs only warnings and worse, on standard error, so that standard output
/// carries the command's output alone.
enum ConsoleApplication {
    /// Runs `body` on the configured application, then shuts it down. A configuration error is a
    /// `LatchdFailure` (exit status 2); any other error is thrown as it is.
    static func run<Output>(_ body: (LatchApplication) async throws -> Output) async throws -> Output {
        var config = try LatchConfig.forCommand()
        config.runsBackgroundTasks = false
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        var logger = Logger(label: "latchd")
        logger.logLevel = .warning
        let app: LatchApplication
        do {
            app = try await LatchApplication.make(config, logger: logger)
        } catch let error as ConfigurationError {
            throw LatchdFailure.configuration(error)
        }
        do {
            let output = try await body(app)
            await app.shutdown()
            return output
        } catch let error as ConfigurationError {
            await app.shutdown()
            throw LatchdFailure.configuration(error)
        } catch {
            await app.shutdown()
            throw error
        }
    }
}
