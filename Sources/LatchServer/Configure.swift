import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import LatchCore
import NIOPosix
import Vapor

/// Sets up Latch on `app`: database and migrations, services, middleware and routes.
/// latchd calls it after reading the environment; tests call it with their own config and clock.
///
///     let app = try await Application.make(.development)
///     try await configure(app, LatchConfig.fromEnvironment())
///     try await app.execute()
public func configure(_ app: Application, _ config: LatchConfig, clock: LatchClock = .system) async throws {
    switch config.database {
    case .sqlite(let path):
        try SQLiteFilePermissions.restrict(databaseAt: path)
        // SQLite statements block a thread of `app.threadPool`, and a writer that finds the database
        // locked spins there until the lock is free (SQLiteNIO's busy handler). By default that pool is
        // the process-wide NIO blocking pool (one thread per core): writers of other applications in
        // the process (tests run several servers at once) could fill it and starve the transaction
        // that holds the lock — a spinning deadlock. Give this application a pool of its own with one
        // thread per connection (one connection per event loop, each running one statement at a time),
        // so the holder always has its thread; more threads only add context switches (issue 10 bench).
        // (Set before `app.databases` is first used: Fluent takes the pool then.)
        let connections = Array(app.eventLoopGroup.makeIterator()).count
        app.threadPool = NIOThreadPool(numberOfThreads: connections)
        // A request waits this long for its event loop's connection (Fluent's default is 10 s; tests that run
        // the whole suite on a busy 2-core machine raise it, issue 22 §8), as on PostgreSQL.
        app.databases.use(
            .sqlite(.file(path), connectionPoolTimeout: .seconds(config.databasePoolTimeoutSeconds)), as: .sqlite)
    case .postgres(let url, let searchPath):
        var postgres = try SQLPostgresConfiguration(url: url)
        postgres.searchPath = searchPath
        // Opening a connection gives up after this long (PostgresNIO's default is 10 s; a whole-suite test
        // run on a busy 2-core machine raises it with the pool's wait, issue 22 §8).
        postgres.coreConfiguration.options.connectTimeout = .seconds(config.databaseConnectTimeoutSeconds)
        app.databases.use(
            .postgres(configuration: postgres, connectionPoolTimeout: .seconds(config.databasePoolTimeoutSeconds)),
            as: .psql)
    }
    if case .sqlite = config.database {
        // The SQLite driver keeps one connection per event loop; set each one up. WAL is stored in
        // the file; synchronous=NORMAL is per connection and, with WAL, never corrupts the database
        // (a power cut may lose the last commits, not the file).
        for eventLoop in app.eventLoopGroup.makeIterator() {
            guard let database = app.databases.database(.sqlite, logger: app.logger, on: eventLoop) else { continue }
            try await database.sql.raw("PRAGMA journal_mode=WAL").run()
            try await database.sql.raw("PRAGMA synchronous=NORMAL").run()
        }
    }
    for migration: any Migration in [
        CreateUsers(), CreateSessions(), CreateRefreshTokens(), CreateEmailCodes(), CreateLoginThrottles(),
        CreateSigningKeys(), CreateSecurityEvents(), CreateTOTPCredentials(), CreateRecoveryCodes(),
        CreateFundPasswords(),
        CreateDeviceCredentials(), CreateSignatureChallenges(), CreateVerifications(), CreateVerificationTokens(),
        CreateNewDeviceTables(), CreateIdentities(), CreateSMSCodes(),
        CreateGuessBudgets(), AddRecoveryHardeningColumns(), CreateSessionRevocationNotice(kind: config.database.kind),
        CreateAppleTokenUses(),
        AddAccountLifecycleColumns(), AddAccountDisabledAt(), CreateAdminAuditLog(),
        CreateDeliveryJobs(), AddSigningKeyRotation(),
        CreatePasskeys(), CreatePasskeyChallenges(), AddDeviceCredentialProtection(),
        AddAdminAuditDetail(), HashKnownDeviceIDs(secrets: SecretBox(secretKey: config.secretKey)),
        AddSecurityEventAggregation(), AddPasskeyChallengeNamedUser(), AddDeliveryJobRecipient(),
        CreateAppleRevocationRetries(), AddAccountContainment(), AddDeliveryJobLane(), AddNewDeviceNoticeSetting(),
        CreateNoticeDigests(), AddSQLiteRotationTrigger(kind: config.database.kind), AddContainmentByConstruction(),
        AddVerificationPolicy(), AddDPoPBinding(), AddAppAttest(), AddFactorProvenance()
    ] {
        app.migrations.add(migration)
    }
    try await app.autoMigrate()

    app.http.server.configuration.hostname = config.host
    app.http.server.configuration.port = config.port
    // On SIGTERM latchd drains the server (in-flight requests finish) for at most this long.
    app.http.server.configuration.shutdownTimeout = .seconds(Int64(config.shutdownGraceSeconds))
    // A connection that sends no request for this long is closed, so idle ones cannot pile up.
    app.http.server.configuration.idleTimeout = .seconds(Int64(config.idleTimeoutSeconds))
    // Vapor's own request series would go to the process-global MetricsSystem, which latchd never
    // bootstraps (a no-op), yet cost a path string and two metric objects per request: ours replace them.
    app.http.server.configuration.reportMetrics = false
    // Request bodies are small JSON: no client needs to compress them, and Vapor's default (inflate
    // `Content-Encoding: gzip`/`deflate` bodies) put a decompressor in every connection's pipeline and
    // let a body grow past what was sent. A compressed body is now just bytes that are not JSON: 400.
    app.http.server.configuration.requestDecompression = .disabled
    let metrics = LatchMetrics.forConfiguration(config)
    app.latchMetrics = metrics
    if let metricsPort = config.metricsPort {
        let limits = MetricsListener.Limits(
            idleTimeout: .seconds(Int64(config.metricsIdleTimeoutSeconds)),
            maximumConnections: config.metricsMaximumConnections)
        app.servers.use { app in app.serverWithMetrics(host: config.metricsHost, port: metricsPort, limits: limits) }
    }
    app.routes.defaultMaxBodySize = "64kb"
    ContentConfiguration.global.use(encoder: LatchJSON.encoder, for: .json)
    ContentConfiguration.global.use(decoder: LatchJSON.decoder, for: .json)

    // bcrypt gets threads of its own: the database drivers use app.threadPool, and a sign-in storm
    // must not queue every query behind password hashes.
    let hashingPool = NIOThreadPool(numberOfThreads: System.coreCount)
    hashingPool.start()
    // First of the background services, so it stops last (issue 29 §2).
    app.backgroundServices.add(ThreadPoolService(pool: hashingPool), name: "bcrypt threads")
    let secrets = SecretBox(secretKey: config.secretKey)
    let keys = try await SigningKeyRing(
        secrets: secrets, database: { app.db }, clock: clock, rotationDays: config.keyRotationDays,
        reloadInterval: config.keyReloadInterval, logger: app.logger)
    if config.runsBackgroundTasks {
        app.backgroundServices.add(SigningKeyRing.Refresher(ring: keys), name: "signing key reload")
    }
    let accessTokens = AccessTokens(ring: keys, issuer: config.issuer)
    let sessionStatus = SessionStatusCache()
    if case .postgres(let url, let searchPath) = config.database {
        var listening = try SQLPostgresConfiguration(url: url).coreConfiguration
        // Named, so an operator (or a test, by schema) can tell the listening connection apart.
        let name = ([SessionRevocationListener.applicationName] + (searchPath?.prefix(1) ?? [])).joined(separator: " ")
        listening.options.additionalStartupParameters.append(("application_name", name))
        let listener = SessionRevocationListener(
            configuration: listening, status: sessionStatus, eventLoopGroup: app.eventLoopGroup, logger: app.logger)
        app.backgroundServices.add(listener, name: "session revocation listener")
    }
    let outbox: DevelopmentOutbox? = config.usesDevelopmentOutbox ? DevelopmentOutbox() : nil
    let delivery = try MessageDeliverySetup.delivery(for: config, outbox: outbox, secrets: secrets, on: app)
    app.latch = LatchServices(
        config: config, clock: clock, secrets: secrets,
        passwords: try PasswordHasher(cost: config.bcryptCost, pool: hashingPool, queueLimit: config.bcryptQueueLimit),
        passwordPolicy: .standard, throttle: LoginThrottleStore(ladder: .standard, waitLimit: config.guessWaitLimit),
        methodThrottle: LoginThrottleStore(ladder: .verificationMethod, waitLimit: config.guessWaitLimit),
        budgets: GuessBudgetStore(),
        emailCodes: EmailCodeStore(secrets: secrets), accessTokens: accessTokens,
        rotation: RefreshTokenRotation(
            secrets: secrets, accessTokens: accessTokens, databaseKind: config.database.kind,
            maximumAge: Double(config.sessionMaxDays) * 24 * 3600),
        sessionStatus: sessionStatus, revocation: SessionRevocation(status: sessionStatus), profiles: ProfileCache(),
        events: SecurityEventLog(), totp: TOTPService(secrets: secrets), challenges: ChallengeStore(),
        verificationTokens: VerificationTokens(), delivery: delivery,
        rateLimiter: RateLimiter(limits: config.rateLimits),
        outbox: outbox, database: { app.db })
    metrics.sampleLiveValues(of: app, passwords: app.latch.passwords)
    app.adminAuthFailureAudit = AdminAuthFailureAudit()

    app.middleware = Middlewares()
    if metrics.isEnabled { app.middleware.use(RequestMetricsMiddleware(series: metrics.requests)) }
    app.middleware.use(SecurityHeadersMiddleware())
    if config.logRequests { app.middleware.use(RequestLogMiddleware()) }
    app.middleware.use(NoStoreMiddleware())
    app.middleware.use(LatchErrorMiddleware())
    app.middleware.use(JSONBodyMiddleware())

    try app.register(collection: HealthRoutes(readiness: ReadinessCheck(timeout: config.readinessTimeout)))
    try app.register(collection: JWKSRoutes())
    try app.register(collection: OpenAPIRoutes())
    try app.register(collection: RegistrationRoutes())
    try app.register(collection: TokenRoutes())
    try app.register(collection: ProfileRoutes())
    try app.register(collection: AccountLifecycleRoutes())
    try app.register(collection: SessionRoutes())
    try app.register(collection: PasswordRoutes())
    try app.register(collection: SecurityEventRoutes())
    try app.register(collection: SecondFactorRoutes())
    try app.register(collection: DeviceCredentialRoutes())
    try app.register(collection: AppAttestRoutes())
    try app.register(collection: VerificationRoutes())
    try app.register(collection: SecuritySettingsRoutes())
    try app.register(collection: AdminRoutes())
    try app.register(collection: PasskeyRoutes())
    try app.register(collection: AccountPageRoutes(links: config.accountPageLinks))
    try app.register(collection: AccountSecurityRoutes())
    try IdentityServices.configure(app, config)
    if config.runsBackgroundTasks, let endpoint = app.identityServices.appleTokens {
        app.backgroundServices.add(
            AppleRevocationRetryWorker.task(
                endpoint: endpoint, services: app.latch, database: { app.db }, logger: app.logger),
            name: "Apple revocation retries")
    }
    if config.runsBackgroundTasks, config.noticeDigestSeconds > 0 {
        app.backgroundServices.add(
            NoticeDigestFlusher.task(services: app.latch, database: { app.db }, logger: app.logger),
            name: "notice digests")
    }
    if let outbox {
        try app.register(collection: OutboxRoutes(outbox: outbox))
        app.logger.notice(
            "development outbox enabled: mail and SMS without a configured carrier are kept in memory at GET /dev/outbox"
        )
    }
}
