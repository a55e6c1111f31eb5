import FluentPostgresDriver
import Foundation
import Logging
import NIOCore
import Synchronization

/// PostgreSQL connections of latchd's own for the refresh path's two prepared statements (issue 44 §4): a
/// `PostgresClient` (PostgresNIO's pool), whose calls lease a connection and run the statement without a
/// future, a task or a pool request per statement as Fluent's `withConnection` takes. The statements are
/// prepared once per connection, as before. Set up as Fluent's connections are (the same URL, TLS mode and
/// `search_path`); its background work runs in a task of its own from `init` until `close()`.
final class PreparedPostgres: Sendable {
    /// One client for the group (it opens its connections on loops of the group). One client per event loop,
    /// so that a statement ran on a connection of its caller's loop, was slower: 1.2x head's refresh against
    /// this one's 1.27x (8 clients), with more CPU on both sides (issue 44 §4, PERFORMANCE.md session 30).
    private let client: PostgresClient
    private let running: Task<Void, Never>
    private let logger: Logger
    private let statementCount = Atomic<Int>(0)

    /// What these connections are called in `pg_stat_activity` (followed by the schema, when one is set).
    static let applicationName = "latch-refresh-statements"

    /// A client of at most `connections` connections to the database at `url` (a URL as
    /// `SQLPostgresConfiguration(url:)` reads it), with `searchPath` as its schema search path.
    init(
        url: String, searchPath: [String]?, connections: Int, connectTimeout: Duration,
        eventLoopGroup: any EventLoopGroup, logger: Logger
    ) throws {
        var configuration = try Self.configuration(url: url, searchPath: searchPath)
        let name = PostgresConnectionName.of(Self.applicationName, searchPath: searchPath)
        configuration.options.additionalStartupParameters.append(("application_name", name))
        configuration.options.maximumConnections = connections
        configuration.options.connectTimeout = connectTimeout
        let client = PostgresClient(
            configuration: configuration, eventLoopGroup: eventLoopGroup, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        running = Task { await client.run() }
    }

    /// Runs `statement` on a connection of the client (prepared there on first use) and answers its rows.
    func rows<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row]
    where Statement.Row: Sendable {
        var rows: [Statement.Row] = []
        for try await row in try await client.execute(statement, logger: logger) { rows.append(row) }
        statementCount.add(1, ordering: .relaxed)
        return rows
    }

    /// How many statements the client ran.
    var statements: Int { statementCount.load(ordering: .relaxed) }

    /// Closes the connections (a call after this fails).
    func close() async {
        running.cancel()
        await running.value
    }

    /// The client's configuration for `url`, as `SQLPostgresConfiguration(url:)` reads it (which also checks
    /// it): host and port or socket, user, password and database from it, and TLS as its `sslmode` says
    /// (`prefer` when it says nothing, none on a socket). PostgresClient takes TLS as a configuration, not as
    /// the context Fluent's connections take.
    static func configuration(url: String, searchPath: [String]?) throws -> PostgresClient.Configuration {
        let core = try SQLPostgresConfiguration(url: url).coreConfiguration
        var configuration: PostgresClient.Configuration
        if let host = core.host, let port = core.port {
            let tls: PostgresClient.Configuration.TLS
            switch tlsMode(url: url) {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(.makeClientConfiguration())
            case .require: tls = .require(.makeClientConfiguration())
            }
            configuration = .init(
                host: host, port: port, username: core.username, password: core.password, database: core.database,
                tls: tls)
        } else if let socket = core.unixSocketPath {
            configuration = .init(
                unixSocketPath: socket, username: core.username, password: core.password, database: core.database)
        } else {
            throw PreparedPostgresError.noEndpoint
        }
        if let searchPath, !searchPath.isEmpty {
            // A run-time parameter in the startup message, as `SET search_path` would set it after.
            let quoted = searchPath.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            configuration.options.additionalStartupParameters.append(("search_path", quoted.joined(separator: ",")))
        }
        return configuration
    }
}

extension PreparedPostgres {
    /// How a TCP connection uses TLS.
    enum TLSMode: Equatable {
        case disable, prefer, require
    }

    /// The TLS mode of a URL SQLPostgresConfiguration accepted, as it reads it: the last of its `sslmode`,
    /// `tlsmode`, `ssl` and `tls` parameters; `prefer` (and `allow`, `true`) when none says otherwise; `require`
    /// for `verify-ca` and `verify-full` too (both verify the certificate and the host name).
    static func tlsMode(url: String) -> TLSMode {
        let names: Set = ["tlsmode", "sslmode", "ssl", "tls"]
        let mode = URLComponents(string: url)?.queryItems?.last(where: { names.contains($0.name.lowercased()) })
        return switch mode?.value {
        case "disable", "false": .disable
        case "verify-full", "verify-ca", "require": .require
        default: .prefer
        }
    }
}

/// A database URL PreparedPostgres cannot connect to.
enum PreparedPostgresError: Error {
    /// The URL names neither a host nor a socket (SQLPostgresConfiguration reads none such).
    case noEndpoint
}
