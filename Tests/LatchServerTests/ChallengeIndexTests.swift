import FluentKit
import Foundation
import LatchTestSupport
import SQLKit
import Testing

@testable import LatchServer

/// Issue 29 §3: a biometric verification consumes and retires its challenge by `verification_id`, and a
/// device-key sign-in counts live challenges by `credential_id`; without indexes each read the whole table.
@Suite("Challenges are found by index (issue 29 §3)")
struct ChallengeIndexTests {
    static let lookups: [(table: String, column: String)] = [
        ("signature_challenges", "verification_id"), ("signature_challenges", "credential_id"),
        ("passkey_challenges", "verification_id")
    ]

    @Test(
        "29 §3 the challenge tables have indexes on the columns verifications and device-key sign-ins look them up by; SQLite's plan searches, never scans",
        arguments: TestDatabase.all)
    func test_29_3_challengesAreFoundByIndex(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sql = server.app.db.sql
            for (table, column) in Self.lookups {
                switch database {
                case .sqlite:
                    let plan = try await sql.raw(
                        "EXPLAIN QUERY PLAN SELECT id FROM \(unsafeRaw: table) WHERE \(unsafeRaw: column) = \(bind: UUID())"
                    ).all().map { try $0.decode(column: "detail", as: String.self) }
                    #expect(
                        plan.contains { $0.contains("USING INDEX \(table)_\(column)") }, "\(table).\(column): \(plan)")
                case .postgres:
                    let indexes = try await sql.raw(
                        "SELECT indexdef FROM pg_indexes WHERE tablename = \(bind: table) AND schemaname = current_schema()"
                    ).all().map { try $0.decode(column: "indexdef", as: String.self) }
                    #expect(indexes.contains { $0.hasSuffix("(\(column))") }, "\(table).\(column): \(indexes)")
                }
            }
        }
    }
}
