import Foundation
import Testing

/// The development outbox exists in development only.
@Suite("Development outbox")
struct DevelopmentOutboxTests {
    @Test("C2 development keeps mail in the outbox, filtered by address", arguments: TestDatabase.all)
    func C2_outboxListsMailInDevelopment(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp("bob@example.com")

            let all = try await server.send(.GET, "/dev/outbox")
            let bobs = try await server.send(.GET, "/dev/outbox?to=BOB@example.com")
            let nobody = try await server.send(.GET, "/dev/outbox?to=carol@example.com")

            #expect(all.status == 200 && all.jsonArray.count == 1)
            let mail = try #require(bobs.jsonArray.first)
            #expect(mail["to"] as? String == "bob@example.com" && mail["channel"] as? String == "email")
            #expect((mail["code"] as? String)?.count == 6 && mail["created_at"] is String)
            #expect(nobody.jsonArray.isEmpty)
        }
    }

    @Test("C2 production has no outbox: GET /dev/outbox is 404", arguments: TestDatabase.all)
    func C2_noOutboxInProduction(database: TestDatabase) async throws {
        let server = try await TestServer.start(database, production: true)
        let response = try await server.send(.GET, "/dev/outbox")
        let health = try await server.send(.GET, "/health")
        try await server.stop()

        #expect(response.status == 404 && response.errorCode == "NOT_FOUND")
        #expect(health.status == 200)
    }
}
