import ArgumentParser
import Foundation
import LatchServer
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// `latchd serve` (also `latchd` alone): reads the configuration, migrates, serves until SIGTERM or
/// SIGINT, then lets in-flight requests finish and exits 0. A bad configuration prints one line naming
/// the variable and exits 2; a failure while serving is logged (critical) and exits 1.
///
/// Where it listens comes from `LATCH_HOST` / `LATCH_PORT` only, so a development latchd stays on loopback
/// unless `LATCH_ALLOW_DEV_ON_NETWORK=1` says otherwise.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Migrate the database and serve the API (what latchd does without a subcommand).",
        discussion: """
            Where it listens, and everything else, comes from the LATCH_* variables (LATCH_HOST, LATCH_PORT, …). \
            On SIGTERM or SIGINT in-flight requests finish (within LATCH_SHUTDOWN_GRACE_SECONDS), then latchd exits 0.
            """
    )

    @Option(
        help: ArgumentHelp("The log level (default: LOG_LEVEL, else info; notice in production).", valueName: "level"))
    var log: LogLevel?

    func run() async throws {
        let config = try LatchConfig.forCommand()
        let level: Logger.Level
        do {
            level = try LatchLogging.level(
                requested: log.flatMap { Logger.Level(rawValue: $0.rawValue) },
                environment: ProcessInfo.processInfo.environment, mode: config.mode)
        } catch let error as ConfigurationError {
            throw LatchdFailure.configuration(error)
        }
        LatchLogging.bootstrap(config.logFormat, level: level)
        let logger = {
            var logger = Logger(label: "latchd")
            logger.logLevel = level
            return logger
        }()
        // Every connection is a file descriptor: take the whole hard limit, and refuse caps that would leave
        // nothing for the database, mail and files (issue 41 §3 E-X1).
        let openFileLimit = OpenFileLimit.raiseToHardLimit()
        if let problem = ConnectionLimits.problem(with: config.connections, openFileLimit: openFileLimit) {
            throw LatchdFailure.configuration(problem)
        }
        let tracing = try Self.startTracing()
        defer { tracing?.stop() }
        let latch: LatchApplication
        do {
            latch = try await LatchApplication.make(config, logger: logger)
        } catch let error as ConfigurationError {
            throw LatchdFailure.configuration(error)
        } catch {
            logger.critical("latchd stopped: \(String(describing: error))")
            throw LatchdFailure.failed("")
        }
        do {
            let router = try latch.makeRouter()
            let app = latch.application(router: router) { channel in
                let address = channel.localAddress
                logger.notice(
                    "Server started on http://\(address?.ipAddress ?? config.host):\(address?.port ?? config.port)")
            }
            // SIGTERM or SIGINT: the server stops taking connections and in-flight requests finish, then the
            // background work and the database stop; all of it within the grace, then what is left is cancelled.
            var group = ServiceGroupConfiguration(
                services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            group.maximumGracefulShutdownDuration = .seconds(config.shutdownGraceSeconds)
            group.maximumCancellationDuration = .seconds(5)
            try await ServiceGroup(configuration: group).run()
            await latch.shutdown()
            await tracing?.flush()
        } catch let error as ConfigurationError {
            await latch.shutdown()
            throw LatchdFailure.configuration(error)
        } catch {
            logger.critical("latchd stopped: \(String(describing: error))")
            await latch.shutdown()
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
