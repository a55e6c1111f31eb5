import FluentKit
import FluentPostgresDriver
import Foundation
import LatchTestSupport
import Testing

extension LatchdProcess {
    /// A database for latchd processes: an SQLite file in a new folder, or a new PostgreSQL database
    /// (the binary takes a URL, not a schema).
    static func databaseURL(_ database: TestDatabase) async throws -> String {
        let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        switch database {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-process-\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return "sqlite://" + folder.appendingPathComponent("latch.sqlite").path
        case .postgres(let url):
            try await TestDatabase.withPostgres(url) { sql in
                try await sql.raw("CREATE DATABASE \(ident: String(name))").run()
            }
            var components = try #require(URLComponents(string: url))
            components.path = "/" + name
            return try #require(components.string)
        }
    }

    /// Starts latchd on `databaseURL` with its log in `folder`, the rate limits ×100 (the rotation
    /// test signs in every half second until the new key signs) plus `extra`.
    static func start(databaseURL: String, extra: [String: String] = [:], logIn folder: URL) async throws
        -> LatchdProcess
    {
        try await start(
            environment: ["LATCH_RATE_LIMIT_SCALE": "100"].merging(extra) { $1 }, databaseURL: databaseURL,
            folder: folder)
    }
}
