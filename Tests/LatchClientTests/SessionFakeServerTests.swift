import Foundation
import LatchCore
import LatchTestSupport
import Testing

@testable import LatchClient

// Tests of the session test doubles (a clock moved by hand and a scripted latchd stand-in): SessionTestBox,
// SessionFakeServer, SessionHarness and Eventually live in Support/, one per file; TestClock in LatchTestSupport.

@Suite("Session test doubles")
struct SessionFakeServerTests {
    @Test func fakeServerRotatesRefreshTokensOnce() async throws {
        let server = SessionFakeServer()
        let api = LatchAPI(serverURL: URL(string: "https://auth.example.com")!, transport: server)
        let tokens = await server.issueTokens()

        let rotated = try await api.refreshGrant(refreshToken: tokens.refreshToken)
        let replay = await #expect(throws: LatchClientError.self) {
            try await api.refreshGrant(refreshToken: tokens.refreshToken)
        }

        #expect(rotated.refreshToken != tokens.refreshToken)
        #expect(replay?.isSessionExpired == true)
    }

    @Test func testClockMovesOnlyWhenTold() {
        let clock = TestClock()
        let start = clock.now
        clock.advance(by: 90)
        #expect(clock.now.timeIntervalSince(start) == 90)
    }
}
