import Fluent
import FluentPostgresDriver
import Foundation
import LatchServer
import Testing
import Vapor

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
            let app = try await Application.make(.testing)
            do {
                app.databases.use(.postgres(configuration: try SQLPostgresConfiguration(url: url)), as: .psql)
                try await (app.db as! any SQLDatabase).raw("CREATE SCHEMA \(ident: String(name))").run()
            } catch {
                try await app.asyncShutdown()
                throw error
            }
            try await app.asyncShutdown()
            return .postgres(url: url, searchPath: [String(name)])
        }
    }
}
