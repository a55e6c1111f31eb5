import Foundation
import LatchServer
import LatchTestSupport
import Testing

/// The configuration contract (ARCHITECTURE.md, "configuration"): the `LATCH_*` defaults, one clear
/// error naming the variable for every bad value, production's demands, and the development key file.
/// The spec has no requirement ID for configuration, so the tests carry the prefix `Config_`.
@Suite("Configuration (environment contract)")
struct ConfigurationTests {
    static let keyBytes = Data((0..<32).map { UInt8($0) })
    static let key = keyBytes.base64EncodedString()

    @Test("Config defaults: SQLite latch.sqlite, 127.0.0.1:8080, issuer, bcrypt cost 12, development outbox")
    func Config_defaults() throws {
        let config = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": Self.key])

        #expect(config.mode == .development)
        #expect(config.database == .sqlite(path: "latch.sqlite"))
        #expect(config.host == "127.0.0.1" && config.port == 8080)
        #expect(config.issuer == "http://127.0.0.1:8080")
        #expect(config.bcryptCost == 12)
        #expect(config.sessionMaxDays == 90, "10 §2: sessions live at most 90 days by default")
        #expect(config.secretKey == Self.keyBytes)
        #expect(config.smtpURL == nil && config.mailFrom == nil)
        #expect(config.usesDevelopmentOutbox)
    }

    @Test("Config every variable is read, and blank values count as unset")
    func Config_explicitValues() throws {
        let config = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": Self.key, "LATCH_DATABASE_URL": "postgres://latch:secret@db.internal:5433/latch",
            "LATCH_HOST": "0.0.0.0", "LATCH_ALLOW_DEV_ON_NETWORK": "1", "LATCH_PORT": "9090",
            "LATCH_ISSUER": "https://auth.example.com",
            "LATCH_BCRYPT_COST": "10", "LATCH_LOG_REQUESTS": "false", "LATCH_SMTP_URL": " ",
            "LATCH_SESSION_MAX_DAYS": "30"
        ])

        #expect(config.database == .postgres(url: "postgres://latch:secret@db.internal:5433/latch"))
        #expect(config.host == "0.0.0.0" && config.port == 9090)
        #expect(config.issuer == "https://auth.example.com")
        #expect(config.bcryptCost == 10)
        #expect(config.sessionMaxDays == 30)
        #expect(!config.logRequests)
        #expect(config.smtpURL == nil)
    }

    @Test("Config a bad value fails with one line naming the variable", arguments: BadSetting.all)
    func Config_badValueNamesVariable(setting: BadSetting) throws {
        var environment = ["LATCH_SECRET_KEY": Self.key]
        environment.merge(setting.environment) { _, new in new }

        let error = try #require(throws: ConfigurationError.self) { try LatchConfig.fromEnvironment(environment) }

        #expect(error.variable == setting.variable)
        #expect(error.description.hasPrefix("\(setting.variable): "))
        #expect(!error.description.contains("\n"))
    }

    @Test("Config production starts with SMTP, a secret key and an explicit issuer")
    func Config_productionWithEverything() throws {
        let config = try LatchConfig.fromEnvironment(Self.production)

        #expect(config.mode == .production)
        #expect(config.issuer == "https://auth.example.com")
        #expect(config.smtpURL == "smtp://latch:secret@mail.example.com:587")
        #expect(config.mailFrom == "latch@example.com")
        #expect(!config.usesDevelopmentOutbox)
        #expect(!config.logRequests)
    }

    @Test(
        "Config production refuses to start without each of its required variables",
        arguments: ["LATCH_SECRET_KEY", "LATCH_ISSUER", "LATCH_SMTP_URL", "LATCH_MAIL_FROM"])
    func Config_productionRequires(variable: String) throws {
        var environment = Self.production
        environment[variable] = nil

        let error = try #require(throws: ConfigurationError.self) { try LatchConfig.fromEnvironment(environment) }

        #expect(error.variable == variable)
        #expect(error.description.contains(variable))
    }

    @Test("Config development without LATCH_SECRET_KEY creates a 0600 latch.key beside the database and reuses it")
    func Config_developmentKeyFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["LATCH_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("latch.sqlite").path]
        let keyFile = folder.appendingPathComponent("latch.key")
        #expect(!FileManager.default.fileExists(atPath: keyFile.path))

        let first = try LatchConfig.fromEnvironment(environment)
        let second = try LatchConfig.fromEnvironment(environment)

        #expect(first.secretKey.count == 32)
        #expect(second.secretKey == first.secretKey)
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let stored = try String(contentsOf: keyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Data(base64Encoded: stored) == first.secretKey)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files == ["latch.key"], "reading the configuration creates no database file")
    }

    @Test("Config a damaged development key file is an error naming LATCH_SECRET_KEY, and is left alone")
    func Config_damagedKeyFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("latch.key")
        try Data("too short\n".utf8).write(to: keyFile)

        let error = try #require(throws: ConfigurationError.self) {
            try LatchConfig.fromEnvironment([
                "LATCH_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("latch.sqlite").path
            ])
        }

        #expect(error.variable == "LATCH_SECRET_KEY")
        #expect(try String(contentsOf: keyFile, encoding: .utf8) == "too short\n")
    }

    @Test(
        "Config latchd with LATCH_PORT=70000 exits non-zero printing one line that names LATCH_PORT",
        .enabled(if: ConfigurationTests.latchd != nil, "needs the latchd binary built beside the tests"))
    func Config_latchdRefusesBadPort() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let latchd = try #require(Self.latchd)
        let process = try ChildProcess(
            [latchd.path],
            environment: [
                "LATCH_PORT": "70000", "LATCH_SECRET_KEY": Self.key,
                "LATCH_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("latch.sqlite").path
            ],
            directory: folder)

        let text = process.readToEnd()
        let status = process.wait()

        #expect(status != 0 && status < 128, "exits with an error status, not a signal: \(status)")
        let lines = text.split(whereSeparator: \.isNewline)
        #expect(lines.count == 1, "\(text)")
        #expect(lines.first?.contains("LATCH_PORT") == true, "\(text)")
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("latch.sqlite").path),
            "nothing started")
    }

    @Test(
        "test_10 development refuses a non-loopback LATCH_HOST unless LATCH_ALLOW_DEV_ON_NETWORK=1; loopback and production are unaffected",
        arguments: ["0.0.0.0", "::", "192.168.1.20", "example.com", "127.example.com"])
    func test_10_developmentStaysOnLoopback(host: String) throws {
        let refused = try #require(throws: ConfigurationError.self) {
            try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": Self.key, "LATCH_HOST": host])
        }
        let allowed = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": Self.key, "LATCH_HOST": host, "LATCH_ALLOW_DEV_ON_NETWORK": "1"
        ])
        var production = Self.production
        production["LATCH_HOST"] = host

        #expect(refused.variable == "LATCH_ALLOW_DEV_ON_NETWORK" && !refused.description.contains("\n"))
        #expect(refused.description.hasPrefix("LATCH_ALLOW_DEV_ON_NETWORK: "))
        #expect(allowed.host == host && allowed.mode == .development)
        #expect(try LatchConfig.fromEnvironment(production).host == host)
        for loopback in ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost"] {
            #expect(
                try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": Self.key, "LATCH_HOST": loopback]).host == loopback
            )
        }
    }

    @Test(
        "test_23_1 production refuses a LATCH_ISSUER that is not https (plain http only for loopback)",
        arguments: [
            ("http://auth.example.com", false), ("ftp://auth.example.com", false), ("https://", false),
            ("http://10.0.0.5:8080", false), ("http://127.0.0.1.example.com", false),
            ("https://auth.example.com", true), ("HTTPS://auth.example.com/base", true),
            ("http://127.0.0.1:8080", true), ("http://localhost:8080", true), ("http://[::1]:8080", true)
        ])
    func test_23_1_productionIssuerIsHTTPS(issuer: String, accepted: Bool) throws {
        var environment = Self.production
        environment["LATCH_ISSUER"] = issuer

        if accepted {
            #expect(try LatchConfig.fromEnvironment(environment).issuer == issuer)
        } else {
            let error = try #require(throws: ConfigurationError.self) { try LatchConfig.fromEnvironment(environment) }
            #expect(error.variable == "LATCH_ISSUER")
            #expect(error.description.contains("https://") && error.description.contains(issuer), "\(error)")
        }
        var development = environment
        development["LATCH_ENV"] = nil
        #expect(throws: Never.self, "development keeps its http default") {
            try LatchConfig.fromEnvironment(development)
        }
    }

    @Test(
        "test_23_1 latchd in production with an http LATCH_ISSUER exits with status 2 printing one line that names LATCH_ISSUER",
        .enabled(if: ConfigurationTests.latchd != nil, "needs the latchd binary built beside the tests"))
    func test_23_1_latchdRefusesPlainHTTPIssuer() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let latchd = try #require(Self.latchd)
        var environment = Self.production
        environment["LATCH_ISSUER"] = "http://auth.example.com"
        environment["LATCH_PORT"] = "18081"
        environment["LATCH_DATABASE_URL"] = "sqlite://" + folder.appendingPathComponent("latch.sqlite").path
        let process = try ChildProcess([latchd.path], environment: environment, directory: folder)

        let text = process.readToEnd()
        let status = process.wait()

        #expect(status == 2, "exit status 2, as for every configuration error: \(status)")
        let lines = text.split(whereSeparator: \.isNewline)
        #expect(lines.count == 1, "\(text)")
        #expect(lines.first?.contains("LATCH_ISSUER: must be an https:// URL in production") == true, "\(text)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing started, no file written"
        )
    }

    @Test(
        "test_10 latchd in development with LATCH_HOST=0.0.0.0 exits with status 2 printing one line that names LATCH_ALLOW_DEV_ON_NETWORK",
        .enabled(if: ConfigurationTests.latchd != nil, "needs the latchd binary built beside the tests"))
    func test_10_latchdRefusesDevelopmentOnNetwork() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let latchd = try #require(Self.latchd)
        let process = try ChildProcess(
            [latchd.path],
            environment: [
                "LATCH_HOST": "0.0.0.0", "LATCH_PORT": "18080", "LATCH_SECRET_KEY": Self.key,
                "LATCH_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("latch.sqlite").path
            ],
            directory: folder)

        let text = process.readToEnd()
        let status = process.wait()

        #expect(status == 2, "exit status 2: \(status)")
        let lines = text.split(whereSeparator: \.isNewline)
        #expect(lines.count == 1, "\(text)")
        #expect(lines.first?.contains("LATCH_ALLOW_DEV_ON_NETWORK") == true, "\(text)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing started, no file written"
        )
    }

    @Test("test_10 an existing development key file is kept at (or tightened to) 0600")
    func test_10_developmentKeyFileStaysPrivate() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("latch.key")
        try Data((Self.key + "\n").utf8).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)

        let config = try LatchConfig.fromEnvironment([
            "LATCH_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("latch.sqlite").path
        ])

        #expect(config.secretKey == Self.keyBytes)
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    /// A complete production environment.
    static let production = [
        "LATCH_ENV": "production", "LATCH_SECRET_KEY": key, "LATCH_ISSUER": "https://auth.example.com",
        "LATCH_SMTP_URL": "smtp://latch:secret@mail.example.com:587", "LATCH_MAIL_FROM": "latch@example.com"
    ]

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The latchd executable SwiftPM built beside this test bundle, if it can be found.
    static let latchd: URL? = {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("latchd"))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("latchd"))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("latchd"))
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/latchd"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}

/// An environment with one bad value, and the variable its error must name.
struct BadSetting: Sendable, CustomTestStringConvertible {
    let environment: [String: String]
    let variable: String

    init(_ variable: String, _ value: String) {
        self.environment = [variable: value]
        self.variable = variable
    }

    var testDescription: String { "\(variable)=\(environment[variable] ?? "")" }

    static let all: [BadSetting] = [
        BadSetting("LATCH_DATABASE_URL", "mysql://x"),
        BadSetting("LATCH_DATABASE_URL", "postgres://"),
        BadSetting("LATCH_DATABASE_URL", "postgres://db.internal"),
        BadSetting("LATCH_DATABASE_URL", "sqlite://"),
        BadSetting("LATCH_DATABASE_URL", "latch.sqlite"),
        BadSetting("LATCH_PORT", "0"),
        BadSetting("LATCH_PORT", "70000"),
        BadSetting("LATCH_PORT", "abc"),
        BadSetting("LATCH_PORT", "-1"),
        BadSetting("LATCH_PORT", "80.5"),
        BadSetting("LATCH_BCRYPT_COST", "3"),
        BadSetting("LATCH_BCRYPT_COST", "32"),
        BadSetting("LATCH_BCRYPT_COST", "twelve"),
        BadSetting("LATCH_SESSION_MAX_DAYS", "0"),
        BadSetting("LATCH_SESSION_MAX_DAYS", "3651"),
        BadSetting("LATCH_SESSION_MAX_DAYS", "ninety"),
        BadSetting("LATCH_SECRET_KEY", "not base64!"),
        BadSetting("LATCH_SECRET_KEY", Data(repeating: 1, count: 16).base64EncodedString()),
        BadSetting("LATCH_SECRET_KEY", Data(repeating: 1, count: 33).base64EncodedString()),
        BadSetting("LATCH_ENV", "staging"),
        BadSetting("LATCH_ISSUER", "auth.example.com"),
        BadSetting("LATCH_SMTP_URL", "http://mail.example.com"),
        BadSetting("LATCH_LOG_REQUESTS", "maybe"),
        BadSetting("LATCH_ALLOW_DEV_ON_NETWORK", "maybe")
    ]
}
