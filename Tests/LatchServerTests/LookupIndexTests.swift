import FluentKit
import Foundation
import LatchTestSupport
import SQLKit
import Testing

@testable import LatchServer

/// Issue 29 §3: a biometric verification consumes and retires its challenge by `verification_id`, a
/// device-key sign-in counts live challenges by `credential_id`, and `ExpiredVerificationRows` finds expired
/// rows by `expires_at` every minute; without indexes each read the whole table.
@Suite("Verification rows are found by index (issue 29 §3)")
struct LookupIndexTests {
    static let lookups: [(table: String, column: String)] = [
        ("signature_challenges", "verification_id"), ("signature_challenges", "credential_id"),
        ("passkey_challenges", "verification_id"), ("signature_challenges", "expires_at"),
        ("verifications", "expires_at"), ("verification_tokens", "expires_at")
    ]

    @Test(
        "29 §3 the challenge tables have indexes on the columns verifications and device-key sign-ins look them up by, and the tables pruned every minute on expires_at; SQLite's plan searches, never scans",
        arguments: TestDatabase.all)
    func test_29_3_verificationRowsAreFoundByIndex(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sql = server.app.db.sql
            for (table, column) in Self.lookups {
                switch database {
                case .sqlite:
                    // As the stores ask: a challenge by its verification or key, expired rows by `<=`.
                    let condition: SQLQueryString =
                        column == "expires_at" ? "<= \(bind: 0.0)" : "= \(bind: UUID())"
                    let plan = try await sql.raw(
                        "EXPLAIN QUERY PLAN SELECT 1 FROM \(unsafeRaw: table) WHERE \(unsafeRaw: column) \(condition)"
                    ).all().map { try $0.decode(column: "detail", as: String.self) }
                    #expect(
                        plan.contains { $0.hasPrefix("SEARCH") && $0.contains("INDEX \(table)_\(column) (") },
                        "\(table).\(column): \(plan)")
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
