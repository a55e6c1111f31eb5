import ArgumentParser
import LatchServer
import Vapor

/// `latchd serve` (also `latchd` alone): reads the configuration, migrates, serves until SIGTERM or
/// SIGINT, then lets in-flight requests finish and exits 0. A bad configuration prints one line naming
/// the variable and exits 2; a failure while serving is logged (critical) and exits 1.
///
/// Where it listens comes from `LATCH_HOST` / `LATCH_PORT` only: Vapor's own `--hostname`, `--port`
/// and `--bind` are not handed on, so a development latchd stays on loopback unless
/// `LATCH_ALLOW_DEV_ON_NETWORK=1` says otherwise.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Migrate the database and serve the API (what latchd does without a subcommand).",
        discussion: """
            Where it listens, and everything else, comes from the LATCH_* variables (LATCH_HOST, LATCH_PORT, …). \
            On SIGTERM or SIGINT in-flight requests finish (within LATCH_SHUTDOWN_GRACE_SECONDS), then latchd exits 0.
            """
    )

    // ArgumentParser's Option, not ConsoleKit's (which Vapor exports).
    @ArgumentParser.Option(
        help: ArgumentHelp("The log level (default: LOG_LEVEL, else info; notice in production).", valueName: "level"))
    var log: LogLevel?

    func run() async throws {
        let config = try LatchConfig.forCommand()
        // Vapor runs its own `serve` command with these arguments; its log set-up reads (and removes) `--log`.
        var environment = Environment(
            name: config.mode.rawValue, arguments: ["latchd", "serve"] + (log.map { ["--log", $0.rawValue] } ?? []))
        try LatchLogging.bootstrap(config.logFormat, from: &environment)
        let tracing = try Self.startTracing()
        defer { tracing?.stop() }
        let app = try await Application.make(environment)
        do {
            try await configure(app, config)
            try await app.execute()
            await app.stopServingGracefully() // SIGTERM: in-flight requests finish before the pools stop
            try await app.asyncShutdown()
            await tracing?.flush()
        } catch let error as ConfigurationError {
            try? await app.asyncShutdown()
            throw LatchdFailure.configuration(error)
        } catch {
            app.logger.critical("latchd stopped: \(String(describing: error))")
            try? await app.asyncShutdown()
            throw LatchdFailure.failed("")
        }
    }

    /// The span exporter, running until `flush()` (which sends what is queued) when tracing is asked for.
    private static func startTracing() throws -> RunningService? {
        do {
            return try ServeTracing.bootstrap().map(RunningService.init)
        } catch {
            throw LatchdFailure.configuration(
                ConfigurationError("OTEL_EXPORTER_OTLP_ENDPOINT", "tracing cannot start: \(error)"))
        }
    }
}
