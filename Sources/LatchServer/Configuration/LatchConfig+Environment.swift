import Foundation

extension LatchConfig {
    /// Reads the configuration from `LATCH_*` variables (ARCHITECTURE.md, "configuration").
    ///
    /// In development without `LATCH_SECRET_KEY` the key is read from, or generated into, a `0600`
    /// file `latch.key` beside the SQLite database. Production refuses to start without SMTP,
    /// a secret key and an explicit `https` issuer.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> LatchConfig {
        func value(_ name: String) -> String? {
            guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }

        let modeName = value("LATCH_ENV") ?? "development"
        guard let mode = Mode(rawValue: modeName) else {
            throw ConfigurationError("LATCH_ENV", "must be development or production (got \(modeName))")
        }
        let database = try parseDatabase(value("LATCH_DATABASE_URL") ?? "sqlite://latch.sqlite")
        let host = value("LATCH_HOST") ?? "127.0.0.1"
        let port = try parseInteger("LATCH_PORT", value("LATCH_PORT"), default: 8080, range: 1...65535)
        let cost = try parseInteger("LATCH_BCRYPT_COST", value("LATCH_BCRYPT_COST"), default: 12, range: 4...31)
        let sessionMaxDays = try parseInteger(
            "LATCH_SESSION_MAX_DAYS", value("LATCH_SESSION_MAX_DAYS"), default: 90, range: 1...3650)

        // Development serves the outbox (live codes) and generates a key file: never on a network by accident.
        let allowDevelopmentOnNetwork: Bool
        switch value("LATCH_ALLOW_DEV_ON_NETWORK") {
        case nil, "0", "false", "no": allowDevelopmentOnNetwork = false
        case "1", "true", "yes": allowDevelopmentOnNetwork = true
        case let other?: throw ConfigurationError("LATCH_ALLOW_DEV_ON_NETWORK", "must be 1 or 0 (got \(other))")
        }
        if mode == .development, !allowDevelopmentOnNetwork, !LoopbackAddress.isLoopback(host: host) {
            throw ConfigurationError(
                "LATCH_ALLOW_DEV_ON_NETWORK",
                "development latchd listens only on loopback; LATCH_HOST=\(host) needs LATCH_ALLOW_DEV_ON_NETWORK=1 (or LATCH_ENV=production)"
            )
        }

        let issuer = value("LATCH_ISSUER")
        if let issuer, URL(string: issuer)?.scheme == nil {
            throw ConfigurationError("LATCH_ISSUER", "must be a URL such as https://auth.example.com")
        }
        let smtpURL = value("LATCH_SMTP_URL")
        if let smtpURL { _ = try SMTPConfiguration(url: smtpURL) }
        let mailFrom = value("LATCH_MAIL_FROM")
        if let mailFrom { _ = try MailAddress(parsing: mailFrom) }
        if smtpURL != nil, mailFrom == nil {
            throw ConfigurationError(
                "LATCH_MAIL_FROM", "is required with LATCH_SMTP_URL (the sender, e.g. latch@example.com)")
        }
        let smsWebhookURL = value("LATCH_SMS_WEBHOOK_URL")
        if let smsWebhookURL { try validateWebhook(smsWebhookURL) }

        var secretKey: Data
        if let encoded = value("LATCH_SECRET_KEY") {
            guard let key = Data(base64Encoded: encoded), key.count == 32 else {
                throw ConfigurationError(
                    "LATCH_SECRET_KEY", "must be 32 bytes in base64 (try: openssl rand -base64 32)")
            }
            secretKey = key
        } else if mode == .production {
            throw ConfigurationError("LATCH_SECRET_KEY", "is required in production (32 bytes in base64)")
        } else {
            secretKey = try DevelopmentKeyFile(path: developmentKeyPath(for: database)).loadOrCreate()
        }

        if mode == .production {
            guard let issuer else { throw ConfigurationError("LATCH_ISSUER", "is required in production") }
            try requireHTTPS(issuer: issuer)
            if smtpURL == nil { throw ConfigurationError("LATCH_SMTP_URL", "is required in production") }
            if mailFrom == nil { throw ConfigurationError("LATCH_MAIL_FROM", "is required in production") }
        }

        let logRequests: Bool?
        switch value("LATCH_LOG_REQUESTS") {
        case nil: logRequests = nil
        case "1", "true", "yes": logRequests = true
        case "0", "false", "no": logRequests = false
        case let other?: throw ConfigurationError("LATCH_LOG_REQUESTS", "must be true or false (got \(other))")
        }

        let serviceKeys = (value("LATCH_SERVICE_KEYS") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        if let short = serviceKeys.first(where: { $0.count < 32 }) {
            throw ConfigurationError(
                "LATCH_SERVICE_KEYS", "each key needs at least 32 characters (one has \(short.count))")
        }

        var config = LatchConfig(
            mode: mode, database: database, host: host, port: port,
            issuer: issuer ?? "http://127.0.0.1:8080", secretKey: secretKey, bcryptCost: cost,
            smtpURL: smtpURL, mailFrom: mailFrom, logRequests: logRequests, serviceKeys: serviceKeys,
            smsWebhookURL: smsWebhookURL
        )
        config.signInProviders = try SignInProviders.fromEnvironment(environment)
        if let list = value("LATCH_TRUSTED_PROXIES") {
            guard let proxies = TrustedProxies(parsing: list) else {
                throw ConfigurationError(
                    "LATCH_TRUSTED_PROXIES",
                    "must be comma-separated CIDRs such as 10.0.0.0/8, 2001:db8::/32 (host bits zero)")
            }
            config.trustedProxies = proxies
        }
        if let raw = value("LATCH_RATE_LIMIT_SCALE") {
            guard let factor = Double(raw), factor.isFinite, (0.01...10_000).contains(factor) else {
                throw ConfigurationError("LATCH_RATE_LIMIT_SCALE", "must be a number from 0.01 to 10000 (got \(raw))")
            }
            config.rateLimits = RateLimits.standard.scaled(by: factor)
        }
        config.bcryptQueueLimit = try parseInteger(
            "LATCH_BCRYPT_QUEUE", value("LATCH_BCRYPT_QUEUE"), default: config.bcryptQueueLimit, range: 1...100_000)
        config.sessionMaxDays = sessionMaxDays
        config.adminKeys = (value("LATCH_ADMIN_KEYS") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        if let short = config.adminKeys.first(where: { $0.count < 32 }) {
            throw ConfigurationError(
                "LATCH_ADMIN_KEYS", "each key needs at least 32 characters (one has \(short.count))")
        }
        config.keyRotationDays = try parseInteger(
            "LATCH_KEY_ROTATION_DAYS", value("LATCH_KEY_ROTATION_DAYS"), default: 90, range: 1...3650)
        config.relyingParty = try RelyingParty.fromEnvironment(value, issuer: issuer, port: port, mode: mode)
        try config.readOperations(value)
        try config.readConnections(value)
        try config.readContainment(value)
        try config.readPolicy(value)
        try config.readDPoP(value)
        try config.readEventStreams(value)
        try config.readSharedSignals(value)
        try config.readAppAttest(value)
        try config.readAPNs(value)
        config.accountPageLinks = try AccountPageLinks.fromEnvironment(value)
        return config
    }

    static func parseDatabase(_ raw: String) throws -> DatabaseLocation {
        if raw.hasPrefix("sqlite://") {
            let path = String(raw.dropFirst("sqlite://".count))
            guard !path.isEmpty else {
                throw ConfigurationError(
                    "LATCH_DATABASE_URL", "sqlite:// needs a file path, e.g. sqlite://latch.sqlite")
            }
            return .sqlite(path: path)
        }
        if raw.hasPrefix("postgres://") || raw.hasPrefix("postgresql://") {
            guard let url = URL(string: raw), url.host != nil, !(url.path.isEmpty || url.path == "/") else {
                throw ConfigurationError("LATCH_DATABASE_URL", "must look like postgres://user:pass@host:port/database")
            }
            return .postgres(url: raw)
        }
        throw ConfigurationError(
            "LATCH_DATABASE_URL", "must start with sqlite:// or postgres:// (got an unparsable URL)")
    }

    /// `LATCH_SMS_WEBHOOK_URL` must be an absolute http(s) URL; the error never repeats it (it may hold a token).
    static func validateWebhook(_ raw: String) throws {
        guard let url = URLComponents(string: raw), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            let host = url.host, !host.isEmpty
        else {
            throw ConfigurationError(
                "LATCH_SMS_WEBHOOK_URL", "must be an http:// or https:// URL such as https://sms.example.com/send")
        }
    }

    static func parseInteger(_ name: String, _ raw: String?, default fallback: Int, range: ClosedRange<Int>) throws
        -> Int
    {
        guard let raw else { return fallback }
        guard let number = Int(raw), range.contains(number) else {
            throw ConfigurationError(
                name, "must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \(raw))")
        }
        return number
    }

    static func developmentKeyPath(for database: DatabaseLocation) -> String {
        guard case .sqlite(let path) = database else { return "latch.key" }
        return URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("latch.key").path
    }
}

extension LatchConfig {
    /// Seed 004 §8.1 (issue 23 §1): in production the issuer — the base of every link latchd mails, the
    /// tokens' `iss` and the passkeys' origin — is `https`. Plain `http` is only accepted for a loopback
    /// host (`localhost`, 127.0.0.0/8, `::1`), where nothing crosses a network (a benchmark, a local
    /// proxy), as the SDK accepts it.
    static func requireHTTPS(issuer: String) throws {
        let url = URL(string: issuer)
        switch url?.scheme?.lowercased() {
        case "https" where url?.host?.isEmpty == false: return
        case "http" where url?.host.map(LoopbackAddress.isLoopback(host:)) == true: return
        default:
            throw ConfigurationError(
                "LATCH_ISSUER",
                "must be an https:// URL in production (got \(issuer); http:// only for localhost, 127.0.0.1 or ::1)")
        }
    }
}
