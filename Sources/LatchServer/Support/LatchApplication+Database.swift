import FluentKit
import FluentPostgresDriver
import FluentSQLiteDriver
import Logging
import NIOCore
import NIOPosix
import SQLKit

extension LatchApplication {
    /// Every migration of latchd's schema, in the order they run (their names are the rows of `_fluent_migrations`).
    static func migrations(_ config: LatchConfig) -> [any Migration] {
        [
            CreateUsers(), CreateSessions(), CreateRefreshTokens(), CreateEmailCodes(), CreateLoginThrottles(),
            CreateSigningKeys(), CreateSecurityEvents(), CreateTOTPCredentials(), CreateRecoveryCodes(),
            CreateFundPasswords(),
            CreateDeviceCredentials(), CreateSignatureChallenges(), CreateVerifications(), CreateVerificationTokens(),
            CreateNewDeviceTables(), CreateIdentities(), CreateSMSCodes(),
            CreateGuessBudgets(), AddRecoveryHardeningColumns(),
            CreateSessionRevocationNotice(kind: config.database.kind),
            CreateAppleTokenUses(),
            AddAccountLifecycleColumns(), AddAccountDisabledAt(), CreateAdminAuditLog(),
            CreateDeliveryJobs(), AddSigningKeyRotation(),
            CreatePasskeys(), CreatePasskeyChallenges(), AddDeviceCredentialProtection(),
            AddAdminAuditDetail(), HashKnownDeviceIDs(secrets: SecretBox(secretKey: config.secretKey)),
            AddSecurityEventAggregation(), AddPasskeyChallengeNamedUser(), AddDeliveryJobRecipient(),
            CreateAppleRevocationRetries(), AddAccountContainment(), AddDeliveryJobLane(),
            AddNewDeviceNoticeSetting(),
            CreateNoticeDigests(), AddSQLiteRotationTrigger(kind: config.database.kind),
            AddContainmentByConstruction(),
            AddVerificationPolicy(), AddDPoPBinding(), AddAppAttest(), AddFactorProvenance(), AddHoldLiftedAt(),
            AddChallengeIndexes(), AddExpiryIndexes(), AddValueLockTrust(), CreateOutboundEvents(),
            CreateEventStreams(),
            AddAppAttestKeysBound(),
            CreateApprovals(), AddApprovalBinding(), AddDeviceCredentialPushToken(), CreatePushApprovals(),
            CreateUserImports()
        ]
    }

    /// The configured database (SQLite file or PostgreSQL), the thread pool of its blocking calls when it
    /// has one of its own (SQLite), and the connections that keep the refresh path's statements prepared
    /// (issue 44 §4; none on an in-memory SQLite database).
    static func openDatabase(
        _ config: LatchConfig, logger: Logger, eventLoopGroup: any EventLoopGroup
    ) async throws -> (Databases, NIOThreadPool?, PreparedConnections?) {
        let eventLoops = Array(eventLoopGroup.makeIterator()).count
        switch config.database {
        case .sqlite(let path):
            try SQLiteFilePermissions.restrict(databaseAt: path)
            // SQLite statements block a thread of the pool, and a writer that finds the database locked spins
            // there until the lock is free (SQLiteNIO's busy handler). The process-wide NIO blocking pool (one
            // thread per core) could be filled by writers of other applications in the process (tests run
            // several servers at once) and starve the transaction that holds the lock — a spinning deadlock.
            // So this application has a pool of its own with one thread per connection (one connection per
            // event loop, each running one statement at a time): the holder always has its thread; more
            // threads only add context switches (issue 10 bench).
            let pool = NIOThreadPool(numberOfThreads: eventLoops)
            pool.start()
            let databases = Databases(threadPool: pool, on: eventLoopGroup)
            // A request waits this long for its event loop's connection (Fluent's default is 10 s; tests that
            // run the whole suite on a busy 2-core machine raise it, issue 22 §8), as on PostgreSQL.
            databases.use(
                .sqlite(.file(path), connectionPoolTimeout: .seconds(config.databasePoolTimeoutSeconds)),
                as: .sqlite)
            do {
                // The driver keeps one connection per event loop; set each one up. WAL is stored in the file;
                // synchronous=NORMAL is per connection and, with WAL, never corrupts the database (a power cut
                // may lose the last commits, not the file).
                for eventLoop in eventLoopGroup.makeIterator() {
                    let database = opened(databases, logger: logger, on: eventLoop)
                    try await database.sql.raw("PRAGMA journal_mode=WAL").run()
                    try await database.sql.raw("PRAGMA synchronous=NORMAL").run()
                }
                // As many as the driver's (one per event loop); an in-memory database is one connection's
                // own, so it has none.
                let prepared =
                    SQLiteFilePermissions.isFile(path)
                    ? try PreparedSQLite(path: path, connections: eventLoops) : nil
                return (databases, pool, prepared.map(PreparedConnections.sqlite))
            } catch {
                await databases.shutdownAsync()
                try? await pool.shutdownGracefully()
                throw error
            }
        case .postgres(let url, let searchPath):
            var postgres = try SQLPostgresConfiguration(url: url)
            postgres.searchPath = searchPath
            // Opening a connection gives up after this long (PostgresNIO's default is 10 s; a whole-suite test
            // run on a busy 2-core machine raises it with the pool's wait, issue 22 §8).
            postgres.coreConfiguration.options.connectTimeout = .seconds(config.databaseConnectTimeoutSeconds)
            // PostgreSQL's driver never blocks a thread: the shared pool is only handed over.
            let databases = Databases(threadPool: .singleton, on: eventLoopGroup)
            databases.use(
                .postgres(
                    configuration: postgres, connectionPoolTimeout: .seconds(config.databasePoolTimeoutSeconds)),
                as: .psql)
            do {
                // Two per event loop: one per loop was 1.16x head's refresh, two 1.27x, four about 1.0x (8 clients;
                // issue 44 §4, PERFORMANCE.md session 30). Fluent's pool keeps its one per loop beside them.
                let prepared = try PreparedPostgres(
                    url: url, searchPath: searchPath, connections: 2 * eventLoops,
                    connectTimeout: .seconds(config.databaseConnectTimeoutSeconds),
                    eventLoopGroup: eventLoopGroup, logger: logger)
                return (databases, nil, .postgres(prepared))
            } catch {
                await databases.shutdownAsync()
                throw error
            }
        }
    }

    /// The database of `databases` on `eventLoop`, logging to `logger`; only ever asked before they shut down.
    static func opened(_ databases: Databases, logger: Logger, on eventLoop: any EventLoop) -> any Database {
        guard let database = databases.database(logger: logger, on: eventLoop) else {
            preconditionFailure("the database is used after LatchApplication.shutdown()")
        }
        return database
    }

    /// Runs the migrations not yet run, as one batch.
    static func migrate(
        _ config: LatchConfig, databases: Databases, logger: Logger, eventLoop: any EventLoop
    ) async throws {
        let migrations = Migrations()
        migrations.add(Self.migrations(config))
        let migrator = Migrator(databases: databases, migrations: migrations, logger: logger, on: eventLoop)
        try await migrator.setupIfNeeded().get()
        try await migrator.prepareBatch().get()
    }
}
