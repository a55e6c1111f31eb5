import FluentKit
import FluentPostgresDriver
import Foundation
import LatchServer
import NIOPosix
import SQLKit
import Testing

/// The databases every server test runs on: SQLite always, PostgreSQL when
/// `LATCH_TEST_POSTGRES_URL` is set (CI sets it).
enum TestDatabase: Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres(url: String)

    static var all: [TestDatabase] {
        var databases: [TestDatabase] = [.sqlite]
        if let url = ProcessInfo.processInfo.environment["LATCH_TEST_POSTGRES_URL"], !url.isEmpty {
            databases.append(.postgres(url: url))
        }
        return databases
    }

    var testDescription: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }

    /// A fresh, empty database location for one test: a new SQLite file, or a new PostgreSQL schema.
    func makeLocation() async throws -> LatchConfig.DatabaseLocation {
        let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-tests-\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return .sqlite(path: folder.appendingPathComponent("latch.sqlite").path)
        case .postgres(let url):
            try await Self.withPostgres(url) { sql in
                try await sql.raw("CREATE SCHEMA \(ident: String(name))").run()
            }
            return .postgres(url: url, searchPath: [String(name)])
        }
    }

    /// Runs `body` on a connection of its own to the PostgreSQL server at `url` (no Latch schema).
    static func withPostgres<T: Sendable>(_ url: String, _ body: (any SQLDatabase) async throws -> T) async throws -> T
    {
        let databases = Databases(threadPool: .singleton, on: MultiThreadedEventLoopGroup.singleton)
        databases.use(.postgres(configuration: try SQLPostgresConfiguration(url: url)), as: .psql)
        do {
            let database = databases.database(
                logger: Logger(label: "test"), on: MultiThreadedEventLoopGroup.singleton.any())
            let result = try await body(database as! any SQLDatabase)
            await databases.shutdownAsync()
            return result
        } catch {
            await databases.shutdownAsync()
            throw error
        }
    }
}
