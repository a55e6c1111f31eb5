import FluentKit
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import LatchCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// Latch without its HTTP edge (issue 29 §2): the database and its migrations, the services, the metrics,
/// the sign-in providers and the background work, made from a `LatchConfig` and a clock. The edge serves its
/// routes on it; `latchd admin` and `latchd keys` use it without serving anything.
///
///     let latch = try await LatchApplication.make(config, logger: logger)
///     defer { Task { await latch.shutdown() } }
///     let sessions = try await Session.query(on: latch.db).count()
///
/// As a swift-service-lifecycle `Service`, `run()` runs the background services (delivery, notice digests,
/// key reload, revocation listener, Apple revocation retries) until the graceful shutdown of its group, then
/// stops them in reverse order and shuts the databases and thread pools down.
public final class LatchApplication: Service, Sendable {
    public let config: LatchConfig
    /// Latch's services (the rules every route calls).
    public let latch: LatchServices
    /// The Apple, WeChat and phone sign-in services.
    public let identityServices: IdentityServices
    /// This application's metrics (disabled unless `LATCH_METRICS_PORT` is set).
    let latchMetrics: LatchMetrics
    public let logger: Logger
    public let eventLoopGroup: any EventLoopGroup
    /// The development outbox, when mail and SMS are kept in memory (`GET /dev/outbox`).
    let outbox: DevelopmentOutbox?
    /// The budget of audit rows for failed admin authentications.
    let adminAuthFailureAudit = AdminAuthFailureAudit()
    /// The routes served (Latch's and those an embedding app adds through `routes(on:)`).
    public let routeTable = RouteTable()
    /// The metrics listener of the serving application (`application(router:)`), when metrics are on.
    let metricsListener = Mutex<MetricsListenerService?>(nil)
    private let databases: Databases
    /// The connections that keep the refresh path's statements prepared (nil on an in-memory SQLite database).
    private let prepared: PreparedConnections?
    private let threadPools: [NIOThreadPool]
    private let backgroundServices: [ServiceGroupConfiguration.ServiceConfiguration]
    private let isShutDown = Mutex(false)

    private init(
        config: LatchConfig, latch: LatchServices, identityServices: IdentityServices, latchMetrics: LatchMetrics,
        logger: Logger, eventLoopGroup: any EventLoopGroup, outbox: DevelopmentOutbox?, databases: Databases,
        prepared: PreparedConnections?, threadPools: [NIOThreadPool],
        backgroundServices: [ServiceGroupConfiguration.ServiceConfiguration]
    ) {
        self.config = config
        self.latch = latch
        self.identityServices = identityServices
        self.latchMetrics = latchMetrics
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
        self.outbox = outbox
        self.databases = databases
        self.prepared = prepared
        self.threadPools = threadPools
        self.backgroundServices = backgroundServices
    }

    /// The database, on any event loop of the group.
    public var db: any Database { db(on: eventLoopGroup.any(), logger: logger) }

    /// The database on `eventLoop` (a request's own, so SQLite's connection of that loop serves it), logging
    /// to `logger`.
    public func db(on eventLoop: any EventLoop, logger: Logger) -> any Database {
        Self.opened(databases, logger: logger, on: eventLoop)
    }

    /// Opens and migrates the database, and makes the services, as `latchd serve` does; nothing runs in the
    /// background until `run()`. On failure everything made so far is shut down before the error is thrown.
    public static func make(
        _ config: LatchConfig, clock: LatchClock = .system, logger: Logger,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> LatchApplication {
        let (databases, databasePool, prepared) = try await openDatabase(
            config, logger: logger, eventLoopGroup: eventLoopGroup)
        // bcrypt gets threads of its own: the database drivers use theirs, and a sign-in storm must not queue
        // every query behind password hashes.
        let hashingPool = NIOThreadPool(numberOfThreads: System.coreCount)
        hashingPool.start()
        let pools = [databasePool, hashingPool].compactMap { $0 }
        do {
            return try await make(
                config, clock: clock, logger: logger, eventLoopGroup: eventLoopGroup, databases: databases,
                hashingPool: hashingPool, pools: pools, prepared: prepared)
        } catch {
            await prepared?.close()
            await databases.shutdownAsync()
            for pool in pools { try? await pool.shutdownGracefully() }
            throw error
        }
    }

    private static func make(
        _ config: LatchConfig, clock: LatchClock, logger: Logger, eventLoopGroup: any EventLoopGroup,
        databases: Databases, hashingPool: NIOThreadPool, pools: [NIOThreadPool], prepared: PreparedConnections?
    ) async throws -> LatchApplication {
        let database: @Sendable () -> any Database = { opened(databases, logger: logger, on: eventLoopGroup.any()) }
        try await migrate(config, databases: databases, logger: logger, eventLoop: eventLoopGroup.any())
        var background: [ServiceGroupConfiguration.ServiceConfiguration] = []
        func add(_ service: any Service, _ name: String) {
            background.append(.init(service: service, serviceName: name))
        }

        let metrics = LatchMetrics.forConfiguration(config)
        let secrets = SecretBox(secretKey: config.secretKey)
        let keys = try await SigningKeyRing(
            secrets: secrets, database: database, clock: clock, rotationDays: config.keyRotationDays,
            reloadInterval: config.keyReloadInterval, logger: logger)
        if config.runsBackgroundTasks { add(SigningKeyRing.Refresher(ring: keys), "signing key reload") }
        let accessTokens = AccessTokens(ring: keys, issuer: config.issuer)
        let sessionStatus = SessionStatusCache()
        if case .postgres(let url, let searchPath) = config.database {
            var listening = try SQLPostgresConfiguration(url: url).coreConfiguration
            let name = PostgresConnectionName.of(SessionRevocationListener.applicationName, searchPath: searchPath)
            listening.options.additionalStartupParameters.append(("application_name", name))
            add(
                SessionRevocationListener(
                    configuration: listening, status: sessionStatus, eventLoopGroup: eventLoopGroup, logger: logger),
                "session revocation listener")
        }
        let outbox: DevelopmentOutbox? = config.usesDevelopmentOutbox ? DevelopmentOutbox() : nil
        // The delivery queue runs on real time (its leases, backoffs and polls), not on `clock`.
        // The APNs provider token's age is `clock`'s (issue 43 §2).
        let deliveries = try MessageDeliverySetup.deliveries(
            for: config, outbox: outbox, secrets: secrets, database: database, metrics: metrics, logger: logger,
            addService: { add($0, $1) }, providerTokenClock: clock)
        let eventStreams = EventStreamSetup.services(
            for: config, secrets: secrets, keys: keys, database: database, metrics: metrics, clock: clock,
            logger: logger, addService: { add($0, $1) })
        let passwords = try PasswordHasher(
            cost: config.bcryptCost, pool: hashingPool, queueLimit: config.bcryptQueueLimit)
        let accounts = AccountStore(profiles: ProfileCache())
        let latch = LatchServices(
            config: config, clock: clock, secrets: secrets,
            passwords: passwords,
            passwordPolicy: .standard,
            throttle: LoginThrottleStore(ladder: .standard, waitLimit: config.guessWaitLimit),
            methodThrottle: LoginThrottleStore(ladder: .verificationMethod, waitLimit: config.guessWaitLimit),
            budgets: GuessBudgetStore(),
            emailCodes: EmailCodeStore(secrets: secrets), accessTokens: accessTokens,
            rotation: RefreshTokenRotation(
                secrets: secrets, accessTokens: accessTokens, accounts: accounts,
                store: RefreshTokenStore(databaseKind: config.database.kind, prepared: prepared),
                maximumAge: Double(config.sessionMaxDays) * 24 * 3600),
            sessionStatus: sessionStatus, revocation: SessionRevocation(status: sessionStatus),
            accounts: accounts,
            events: SecurityEventLog(), totp: TOTPService(secrets: secrets, passwords: passwords),
            challenges: ChallengeStore(),
            verificationTokens: VerificationTokens(), delivery: deliveries.messages,
            rateLimiter: RateLimiter(limits: config.rateLimits), eventStreams: eventStreams,
            outbox: outbox, database: database, pushes: deliveries.pushes)
        metrics.sampleLiveValues(database: database(), passwords: latch.passwords, prepared: prepared?.sqlite)
        let identityServices = IdentityServices.make(config, logger: logger)
        if config.runsBackgroundTasks, let endpoint = identityServices.appleTokens {
            add(
                AppleRevocationRetryWorker.task(
                    endpoint: endpoint, services: latch, database: database, logger: logger),
                "Apple revocation retries")
        }
        if config.runsBackgroundTasks {
            add(
                ExpiredVerificationRows.task(services: latch, database: database, logger: logger),
                "expired verification rows")
            add(OutboundEventStore.task(services: latch, database: database, logger: logger), "old outbound events")
        }
        if config.runsBackgroundTasks, config.noticeDigestSeconds > 0 {
            add(NoticeDigestFlusher.task(services: latch, database: database, logger: logger), "notice digests")
        }
        return LatchApplication(
            config: config, latch: latch, identityServices: identityServices, latchMetrics: metrics, logger: logger,
            eventLoopGroup: eventLoopGroup, outbox: outbox, databases: databases, prepared: prepared,
            threadPools: pools, backgroundServices: background)
    }

    /// Runs the background services until the graceful shutdown of the service group this runs in, stops them
    /// (in reverse order: the delivery worker releases the mail it holds), then shuts the application down.
    public func run() async throws {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: backgroundServices, logger: logger))
        do {
            try await withGracefulShutdownHandler {
                try await group.run()
            } onGracefulShutdown: {
                Task { await group.triggerGracefulShutdown() }
            }
        } catch {
            logger.error("background services stopped: \(String(reflecting: type(of: error)))")
        }
        // A group with nothing to run (no background work configured) returns at once: the application
        // still serves until its own group shuts down.
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Closes the database connections and stops the thread pools; once only (later calls return at once).
    /// `run()` calls it when it ends; a command that never ran the application calls it itself.
    public func shutdown() async {
        let first = isShutDown.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        await prepared?.close()
        await databases.shutdownAsync()
        for pool in threadPools { try? await pool.shutdownGracefully() }
    }
}
