import Foundation
import LatchCore
import Testing

@testable import LatchServer

/// Issue 45 §1 (a million users in ten minutes): which lines of a batch are written together, decided as a
/// pure value. Only certain new users are: valid, unknown to the database, sharing no key in the batch.
@Suite("Moving in: the batch plan (issue 45 §1)")
struct UserImportBatchPlanTests {
    static func record(_ json: String) throws -> UserImportRecord {
        let line = try JSONDecoder().decode(ImportedUserLine.self, from: Data(json.utf8))
        return try UserImportRecord.validate(line, allowLegacy: false).get()
    }

    @Test("45 §1 batch plan: new users with keys of their own go together; invalid, known and shared ones one by one")
    func test_45_1_batchPlan() throws {
        let records: [UserImportRecord?] = [
            try Self.record(#"{"external_id":"a","email":"a@example.com"}"#),
            nil,
            try Self.record(#"{"external_id":"known","email":"b@example.com"}"#),
            try Self.record(#"{"external_id":"c","email":"taken@example.com"}"#),
            try Self.record(#"{"external_id":"d","email":"d@example.com","phone":"+8613800000001"}"#),
            try Self.record(#"{"external_id":"e","email":"e@example.com","phone":"+8613800000001"}"#),
            try Self.record(
                #"{"external_id":"f","email":"f@example.com","identities":[{"provider":"apple","sub":"s"}]}"#),
            try Self.record(#"{"email":"g@example.com"}"#)
        ]
        let known = UserImportBatchPlan.Known(
            externalIDs: ["known"], emails: ["taken@example.com"],
            identities: [.init(provider: .apple, subject: "s")])
        let plan = UserImportBatchPlan.plan(records, known: known)
        #expect(plan.together == [0, 7])
        #expect(plan.oneByOne == [1, 2, 3, 4, 5, 6])
        // Nothing known: only the two sharing a phone (and the invalid line) go one by one.
        let fresh = UserImportBatchPlan.plan(records, known: .init())
        #expect(fresh.together == [0, 2, 3, 6, 7] && fresh.oneByOne == [1, 4, 5])
    }
}
