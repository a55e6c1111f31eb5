import Foundation
import LatchCore
import Vapor

/// Sets up Latch on `app`: the `LatchApplication` (database and migrations, services, background work),
/// then the HTTP edge's middleware and routes. latchd calls it after reading the environment; tests call it
/// with their own config and clock.
///
///     let app = try await Application.make(.development)
///     try await configure(app, LatchConfig.fromEnvironment())
///     try await app.execute()
public func configure(_ app: Application, _ config: LatchConfig, clock: LatchClock = .system) async throws {
    // Run with the Vapor application and shut down with it (also when a later step throws).
    app.latchApplication = try await LatchApplication.make(
        config, clock: clock, logger: app.logger, eventLoopGroup: app.eventLoopGroup)

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
    let metrics = app.latchMetrics
    if let metricsPort = config.metricsPort {
        let limits = MetricsListener.Limits(
            idleTimeout: .seconds(Int64(config.metricsIdleTimeoutSeconds)),
            maximumConnections: config.metricsMaximumConnections)
        app.servers.use { app in app.serverWithMetrics(host: config.metricsHost, port: metricsPort, limits: limits) }
    }
    app.routes.defaultMaxBodySize = "64kb"
    ContentConfiguration.global.use(encoder: LatchJSON.encoder, for: .json)
    ContentConfiguration.global.use(decoder: LatchJSON.decoder, for: .json)

    app.middleware = Middlewares()
    if LatchTracing.isEnabled {
        // Outermost, so the span covers the whole answer; Vapor carries its context across its futures.
        app.traceAutoPropagation = true
        app.middleware.use(RequestTracingMiddleware())
    }
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
    try app.register(collection: IdentityRoutes())
    if let outbox = app.latchApplication.outbox {
        try app.register(collection: OutboxRoutes(outbox: outbox))
        app.logger.notice(
            "development outbox enabled: mail and SMS without a configured carrier are kept in memory at GET /dev/outbox"
        )
    }
}
