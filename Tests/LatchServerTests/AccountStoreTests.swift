import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 44 §1: `AccountStore` owns the `users` row and keeps this instance's `GET /v1/me` cache true
/// itself, so a writer that is not the profile's own route (here a user import's update, which before
/// left the cached profile for up to 5 s) cannot leave it stale.
@Suite("Issue 44 §1: one owner of the users row")
struct AccountStoreTests {
    @Test(
        "44 §1 a change of the row by any writer is seen at once by GET /v1/me on this instance",
        arguments: TestDatabase.all)
    func test_44_1_everyWriterKeepsTheProfileTrue(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let admin = AdminService.console(on: server.app, language: .en)
            _ = try await admin.importUsers(at: try UserImportTests.file([UserImportTests.alice()]), dryRun: false)
            let signedIn = try await server.signIn(
                "alice@example.com", password: UserImportFixtures.bcryptPassword.secret,
                device: UserImportTests.device)
            let bearer = try signedIn.decode(TokenResponse.self).accessToken
            let before = try await server.send(.GET, "/v1/me", bearer: bearer).decode(UserInfo.self)
            #expect(before.nickname == "Alice")

            // The clock stands still: only the store's own invalidation can make the next read fresh.
            var renamed = UserImportTests.alice()
            renamed["nickname"] = "Alicia"
            let report = try await admin.importUsers(at: try UserImportTests.file([renamed]), dryRun: false)
            #expect(report.updated == 1, "\(report)")
            let after = try await server.send(.GET, "/v1/me", bearer: bearer).decode(UserInfo.self)
            #expect(after.nickname == "Alicia")

            // The owner's own writer keeps it too.
            _ = try await server.send(.PATCH, "/v1/me", json: ["nickname": "Al"], bearer: bearer)
            #expect(try await server.send(.GET, "/v1/me", bearer: bearer).decode(UserInfo.self).nickname == "Al")
        }
    }
}
