import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

extension LatchApplication {
    /// A router for Latch (HEAD answered by each GET route) with Latch's middleware and routes installed.
    /// An embedding app adds its own routes after, through `routes(on:)`.
    public func makeRouter() throws -> Router<LatchRequestContext> {
        let router = Router(context: LatchRequestContext.self, options: .autoGenerateHeadEndpoints)
        try install(on: router)
        return router
    }

    /// Installs Latch's middleware and routes on `router`. Hummingbird applies a router's middleware to the
    /// routes added after it, so this must come before any route of the embedding app.
    public func install(on router: Router<LatchRequestContext>) throws {
        precondition(router.routes.isEmpty, "install Latch on the router before adding routes of your own")
        // Outermost, so the span covers the whole answer.
        if LatchTracing.isEnabled { router.add(middleware: RequestTracingMiddleware()) }
        router.add(middleware: LatchContextMiddleware(trustedProxies: config.trustedProxies))
        if latchMetrics.isEnabled { router.add(middleware: RequestMetricsMiddleware(series: latchMetrics.requests)) }
        router.add(middleware: SecurityHeadersMiddleware())
        if config.logRequests { router.add(middleware: RequestLogMiddleware()) }
        router.add(middleware: NoStoreMiddleware())
        router.add(middleware: LatchErrorMiddleware(routeTable: routeTable))
        router.add(middleware: TransferCodingMiddleware())
        router.add(middleware: JSONBodyMiddleware())

        // Each collection gets what its handlers use, now: nothing reaches the application from a request.
        let routes = routes(on: router)
        let (latch, database, metrics, identities) = (latch, requestDatabase, latchMetrics, identityServices)
        let admins = AdminKeyCheck(
            latch: latch, database: database, appleTokens: identities.appleTokens,
            failureAudit: adminAuthFailureAudit)
        var collections: [any LatchRouteCollection] = [
            HealthRoutes(readiness: ReadinessCheck(timeout: config.readinessTimeout), database: database),
            JWKSRoutes(latch: latch), OpenAPIRoutes(),
            RegistrationRoutes(latch: latch, metrics: metrics, database: database),
            TokenRoutes(latch: latch, metrics: metrics, identityServices: identities, database: database),
            ProfileRoutes(latch: latch, database: database),
            AccountLifecycleRoutes(latch: latch, database: database, appleTokens: identities.appleTokens),
            SessionRoutes(latch: latch, database: database),
            PasswordRoutes(latch: latch, metrics: metrics, database: database),
            SecurityEventRoutes(database: database),
            SecondFactorRoutes(latch: latch, metrics: metrics, database: database),
            DeviceCredentialRoutes(latch: latch, database: database), AppAttestRoutes(latch: latch, database: database),
            VerificationRoutes(
                latch: latch, metrics: metrics, database: database, requireSignedIn: routes.requireSignedIn),
            SecuritySettingsRoutes(latch: latch, database: database), AdminRoutes(admins: admins),
            EventStreamAdminRoutes(admins: admins), SharedSignalsRoutes(latch: latch, database: database),
            PasskeyRoutes(latch: latch, database: database), AccountPageRoutes(links: config.accountPageLinks),
            AccountSecurityRoutes(latch: latch, database: database),
            IdentityRoutes(latch: latch, metrics: metrics, identityServices: identities, database: database),
            ApprovalRoutes(latch: latch, database: database), PushTokenRoutes(latch: latch, database: database)
        ]
        if let outbox {
            collections.append(OutboxRoutes(outbox: outbox))
            logger.notice(
                "development outbox enabled: mail and SMS without a configured carrier are kept in memory at GET /dev/outbox"
            )
        }
        for collection in collections { try collection.boot(routes: routes) }
    }

    /// Routes on `router` (or a group of it) that read `LatchRequest`s and are listed in `routeTable`;
    /// `signedIn()` puts them behind `RequireSignedIn`.
    public func routes(on router: some RouterMethods<LatchRequestContext>) -> LatchRoutes {
        LatchRoutes(group: router.group(), table: routeTable, requireSignedIn: requireSignedIn)
    }

    /// The check of a signed-in session, with this application's services.
    var requireSignedIn: RequireSignedIn { RequireSignedIn(latch: latch, database: requestDatabase) }

    /// The Hummingbird application that serves `router` on the configured host and port (`LATCH_HOST`,
    /// `LATCH_PORT`; idle connections closed after `LATCH_IDLE_TIMEOUT_SECONDS`; connections capped and
    /// requests given deadlines by `ConnectionLimits`, from `LATCH_MAX_CONNECTIONS*` and the open-file
    /// limit, through `GuardedHTTP1Channel`), running this application
    /// (its background work) and the metrics listener beside the server. Run it in a `ServiceGroup`; at its
    /// graceful shutdown the server stops first (in-flight requests finish), then the metrics listener, then
    /// the background work and the database.
    public func application(
        router: Router<LatchRequestContext>, port: Int? = nil,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var services: [any Service] = [self]
        if let metricsPort = config.metricsPort {
            let listener = MetricsListenerService(
                metrics: latchMetrics, host: config.metricsHost, port: metricsPort,
                limits: MetricsListener.Limits(
                    idleTimeout: .seconds(Int64(config.metricsIdleTimeoutSeconds)),
                    maximumConnections: config.metricsMaximumConnections),
                group: eventLoopGroup)
            metricsListener.withLock { $0 = listener }
            services.append(listener)
        }
        let limits = ConnectionLimits.resolved(config.connections, openFileLimit: OpenFileLimit.current)
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionCloseOption()],
            idleTimeout: .seconds(Int64(config.idleTimeoutSeconds)))
        let proxies = config.trustedProxies
        let logger = logger
        logger.info(
            "connection limits",
            metadata: [
                "maximum": "\(limits.maximumConnections)",
                "maximum_per_address": "\(limits.maximumConnectionsPerAddress)",
                "open_file_limit": "\(OpenFileLimit.current.map(String.init) ?? "unlimited")"
            ])
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedHTTP1Channel(
                    http: HTTP1Channel(responder: responder, configuration: http), limits: limits,
                    clientKey: ConnectionLimits.clientKey(trusting: proxies), logger: logger)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(config.host, port: port ?? config.port), serverName: nil),
            services: services, onServerRunning: onServerRunning,
            eventLoopGroupProvider: .shared(eventLoopGroup), logger: logger)
    }

    /// The port the metrics listener is bound to while the application serves (nil when metrics are off or
    /// it is not serving); tests bind port 0 and read the real one here.
    public var metricsPort: Int? { metricsListener.withLock { $0 }?.boundPort }
}
