import Foundation
import LatchTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The CLI tests' latchd: the real binary on a free loopback port, SQLite in its temporary folder,
/// development outbox (`LatchdProcess` from LatchTestSupport; `withLatchd` starts and removes one).
typealias Latchd = LatchdProcess

extension LatchdProcess {
    /// `GET /v1/security-events` with the session stored in `home`: the event types, newest first.
    func securityEventTypes(home: URL) async throws -> [String] {
        let session = try Data(contentsOf: home.appendingPathComponent("session"))
        let stored = try JSONDecoder().decode(StoredTokens.self, from: session)
        let answer = try await send("GET", "/v1/security-events", bearer: stored.access_token)
        #expect(answer.status == 200)
        return try answer.decode(Page.self).events.map(\.type)
    }

    private struct StoredTokens: Decodable { let access_token: String }
    private struct Event: Decodable { let type: String }
    private struct Page: Decodable { let events: [Event] }
}
