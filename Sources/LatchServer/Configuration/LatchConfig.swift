import Foundation

/// Everything latchd needs to run, read once at start from the `LATCH_*` environment variables.
public struct LatchConfig: Sendable {
    /// Where the data lives.
    public enum DatabaseLocation: Sendable, Equatable {
        /// An SQLite file (WAL mode), created on first start.
        case sqlite(path: String)
        /// A PostgreSQL database; `searchPath` picks a schema (tests use one schema each).
        case postgres(url: String, searchPath: [String]? = nil)
    }

    /// `development` enables the outbox and request logs; `production` demands real settings.
    public enum Mode: String, Sendable { case development, production }

    public var mode: Mode
    public var database: DatabaseLocation
    public var host: String
    public var port: Int
    public var issuer: String
    /// 32 bytes that encrypt secrets at rest and key code hashes.
    public var secretKey: Data
    public var bcryptCost: Int
    /// `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://…`; nil: the outbox in development.
    public var smtpURL: String?
    /// The sender: `latch@example.com` or `Latch <latch@example.com>`.
    public var mailFrom: String?
    /// Where SMS go: an HTTP(S) URL that takes `POST {to, text}`; nil: the outbox in development.
    public var smsWebhookURL: String?
    /// Per-request info logs (on by default in development only).
    public var logRequests: Bool
    /// Keys that let a backend service redeem verification tokens without the user's access token.
    public var serviceKeys: [String]
    /// Sign in with Apple and WeChat (off when not configured).
    public var signInProviders = SignInProviders()
    /// Reverse proxies whose `X-Forwarded-For` names the client (`LATCH_TRUSTED_PROXIES`); none: the TCP peer is the client.
    public var trustedProxies = TrustedProxies()
    /// Token buckets in front of the unauthenticated endpoints (`LATCH_RATE_LIMIT_SCALE` scales the standard ones).
    public var rateLimits = RateLimits.standard
    /// bcrypt checks and hashes running or waiting at most (`LATCH_BCRYPT_QUEUE`, default 4 per core);
    /// beyond, the request answers 429 at once instead of waiting longer and longer.
    public var bcryptQueueLimit = 4 * ProcessInfo.processInfo.activeProcessorCount
    /// How long a guess at a secret waits while the lockout ladder's whole allowance is being checked
    /// by other requests (they decide lock or not); after it the guess answers 429 (`retry_after` 1).
    /// Tests that send dozens of sign-ins at once raise it, so the answer does not depend on machine load.
    public var guessWaitLimit: Duration = .seconds(10)
    /// How long `GET /health/ready` waits for the database's `SELECT 1` before answering 503.
    public var readinessTimeout: Duration = .seconds(2)
    /// How long a request waits for a database connection of the pool (SQLite or PostgreSQL) before
    /// failing (Fluent's default, 10 s). Tests that run the whole suite on a busy 2-core machine raise it (issue 22 §8).
    public var databasePoolTimeoutSeconds: Int64 = 10
    /// How long opening a PostgreSQL connection may take before it fails (PostgresNIO's default, 10 s).
    public var databaseConnectTimeoutSeconds: Int64 = 10
    /// How long a call to Apple (key set, token and revoke endpoints) or WeChat may take before it
    /// counts as unreachable (503 `provider_unavailable`). Tests on a busy machine raise it.
    public var providerTimeoutSeconds: Int64 = 5
    /// Messages waiting to be sent, per channel, at most; beyond, the request that would add one answers 503.
    public var deliveryQueueCapacity = 10_000
    /// The absolute lifetime of a session in days (`LATCH_SESSION_MAX_DAYS`, 1–3650): however often it
    /// is refreshed, a session ends this long after its sign-in (besides the 30-day idle limit).
    public var sessionMaxDays = 90
    /// Keys that authenticate operators on `/v1/admin/*` (`LATCH_ADMIN_KEYS`, at least 32 characters each);
    /// none: every admin route answers 401.
    public var adminKeys: [String] = []
    /// How long a claimed delivery job stays with the instance sending it without a renewal (renewed
    /// every third of it while the send runs): a killed instance's jobs are sent by another after it.
    public var deliveryLease: Duration = .seconds(60)
    /// How often an idle delivery worker looks for due jobs (queued by other instances, retries coming
    /// due, a dead instance's); a job queued by this instance wakes it at once.
    public var deliveryPollInterval: Duration = .seconds(1)
    /// Backoff and attempts of failed deliveries.
    public var deliveryRetry = RetryPolicy.standard
    /// Signing keys: a new one signs every this many days (`LATCH_KEY_ROTATION_DAYS`, 1–3650).
    public var keyRotationDays = 90
    /// How often an instance reads the signing keys again (another instance's rotation signs here
    /// within this), and checks whether automatic rotation is due.
    public var keyReloadInterval: Duration = .seconds(5)
    /// Whether `configure` starts the background work of a serving latchd (the delivery worker, the
    /// signing-key reload and automatic rotation). Operator commands (`latchd keys …`) turn it off.
    public var runsBackgroundTasks = true
    /// The WebAuthn relying party of passkeys (`LATCH_WEBAUTHN_RP_ID`, `LATCH_WEBAUTHN_RP_NAME`, `LATCH_WEBAUTHN_ORIGINS`).
    public var relyingParty = RelyingParty.development
    /// The Terms of Service and Privacy Policy the account page's sign-up links (`LATCH_TERMS_URL`,
    /// `LATCH_PRIVACY_URL`).
    public var accountPageLinks = AccountPageLinks()
    /// The Prometheus listener's port (`LATCH_METRICS_PORT`); nil: metrics off, nothing listens and
    /// nothing is measured. 0 (tests): a port the system chooses, read from `app.metricsPort`.
    public var metricsPort: Int?
    /// The Prometheus listener's address (`LATCH_METRICS_HOST`, loopback by default).
    public var metricsHost = "127.0.0.1"
    /// Text for people or one JSON object per line (`LATCH_LOG_FORMAT`); read by `latchd` before it logs.
    public var logFormat = LogFormat.text
    /// On SIGTERM, how long in-flight requests may take to finish before latchd stops anyway
    /// (`LATCH_SHUTDOWN_GRACE_SECONDS`, 0–3600).
    public var shutdownGraceSeconds = 10
    /// A connection of the API's listener that carries no request for this long is closed
    /// (`LATCH_IDLE_TIMEOUT_SECONDS`, 1–3600, default 90: longer than a load balancer's usual 60 s, so
    /// the balancer closes first). Idle connections cannot pile up (issue 20 §10).
    public var idleTimeoutSeconds = 90
    /// The metrics listener's limits: an idle connection is closed after this many seconds, and no
    /// more than `metricsMaximumConnections` are open at once (a scraper needs one).
    public var metricsIdleTimeoutSeconds = 10
    public var metricsMaximumConnections = 16
    /// The API listener's connection caps and request deadlines (`LATCH_MAX_CONNECTIONS*`,
    /// `LATCH_HEADER_TIMEOUT_SECONDS`, `LATCH_BODY_TIMEOUT_SECONDS`; issue 41 §3).
    public var connections = ConnectionSettings()
    /// Which receiver URLs event streams may name (issue 42 §3): plain `http` (`LATCH_EVENT_STREAMS_ALLOW_HTTP`,
    /// on by default in development only) and loopback, private and link-local addresses
    /// (`LATCH_EVENT_STREAMS_ALLOW_PRIVATE`, off by default).
    public var eventStreamsAllowHTTP: Bool?
    public var eventStreamsAllowPrivate = false
    /// Whether a user import takes MD5, SHA-1 and SHA-256 password digests (`LATCH_IMPORT_LEGACY_HASHES=1`,
    /// issue 45 §2); such users are flagged for a password change.
    public var importLegacyHashes = false
    /// The receiver client's connect and answer timeouts (issue 42 §3).
    var receiverClient = ReceiverClientSettings()
    /// The SSF receivers' keys, each with its audience (`LATCH_SSF_RECEIVER_KEYS`, issue 42 §2).
    public var ssfReceiverKeys: [SSFReceiverKey] = []
    /// How long a security hold pauses the held actions after a security change, in hours
    /// (`LATCH_SECURITY_HOLD_HOURS`, 0–8760, default 24; 0 turns holds off). Issue 19 §2.
    public var securityHoldHours = 24
    /// Whether grants may (`optional`) or must (`required`) carry a DPoP proof (`LATCH_DPOP`, issue 31).
    public var dpop = DPoPMode.optional
    /// Whether DPoP proofs must carry a server nonce (`LATCH_DPOP_NONCE=1`, RFC 9449 §8).
    public var dpopNonces = false
    /// Origins besides the issuer's that clients reach latchd at (`LATCH_PUBLIC_ORIGINS`, `scheme://host[:port]`):
    /// what a DPoP proof's `htu` may name (issue 41 §2 D1).
    public var publicOrigins: [String] = []
    /// App Attest on device binding (issue 31 §2): `LATCH_APP_ATTEST*`.
    public var appAttest = AppAttestSettings()
    /// Approval pushes over APNs (issue 43 §2): `LATCH_APNS_*`; nil (the default): no pushes.
    public var apns: APNsSettings?
    /// The app's action names a security hold pauses (`LATCH_HOLD_ACTIONS`, comma-separated, default
    /// `withdrawal`), e.g. `withdrawal,internal_transfer,view_private_key`.
    public var holdActions = ["withdrawal"]
    /// Security notices one account's own changes may mail in an hour (`LATCH_SECURITY_MAILS_PER_HOUR`,
    /// 1–10000, default 20): the next change answers 429 RATE_LIMITED with `retry_after` until the
    /// hour that began with the first one ends (issue 20 §2). Operators' actions and sign-ins are not counted.
    public var securityMailsPerHour = 20
    /// At most one security notice mail per account in this many seconds (`LATCH_NOTICE_DIGEST_SECONDS`,
    /// 0–86400, default 300; 0: one mail per change): a change within the window of the last notice
    /// writes a `notice_digests` row instead, and one digest mail lists them once the window has passed
    /// (issue 20 §2).
    public var noticeDigestSeconds = 300
    /// The verification policy (issue 30, `LATCH_POLICY_FILE`); `.unrestricted` without a file.
    var verificationPolicy = VerificationPolicy.unrestricted
    /// The file the policy was read from (nil: none), as `GET /v1/admin/policy` shows it.
    public internal(set) var policyFile: String?

    public init(
        mode: Mode = .development, database: DatabaseLocation = .sqlite(path: "latch.sqlite"),
        host: String = "127.0.0.1", port: Int = 8080, issuer: String = "http://127.0.0.1:8080",
        secretKey: Data, bcryptCost: Int = 12, smtpURL: String? = nil, mailFrom: String? = nil,
        logRequests: Bool? = nil, serviceKeys: [String] = [], smsWebhookURL: String? = nil
    ) {
        self.mode = mode
        self.database = database
        self.host = host
        self.port = port
        self.issuer = issuer
        self.secretKey = secretKey
        self.bcryptCost = bcryptCost
        self.smtpURL = smtpURL
        self.mailFrom = mailFrom
        self.logRequests = logRequests ?? (mode == .development)
        self.serviceKeys = serviceKeys
        self.smsWebhookURL = smsWebhookURL
    }

    /// Whether the development outbox (and `GET /dev/outbox`) is on: in development, when mail or
    /// SMS has no carrier configured (it then keeps the messages of that channel).
    public var usesDevelopmentOutbox: Bool { mode == .development && (smtpURL == nil || smsWebhookURL == nil) }
}
