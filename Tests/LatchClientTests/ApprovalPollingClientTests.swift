import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 43 §3: the waiting side polls through the client as RFC 8628 says, against a scripted latchd.
@Suite("Issue 43 §3: polling through the client")
struct ApprovalPollingClientTests {
    /// Answers each request with the next scripted response, and records what was asked.
    actor ScriptedLatchd: HTTPTransport {
        private var answers: [HTTPResponse]
        private(set) var sent: [HTTPRequest] = []

        init(_ answers: [HTTPResponse]) { self.answers = answers }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            sent.append(request)
            guard !answers.isEmpty else { throw URLError(.notConnectedToInternet) }
            return answers.removeFirst()
        }
    }

    /// The seconds slept, in order.
    actor Sleeps {
        private(set) var seconds: [Int] = []
        func add(_ value: Int) { seconds.append(value) }
    }

    static func refusal(_ code: String, _ reason: String) -> HTTPResponse {
        HTTPResponse(
            status: 400, headers: ["Content-Type": "application/json"],
            body: Data(#"{"error":"\#(code)","message":"m","reasons":["\#(reason)"]}"#.utf8))
    }

    static let started = SignInApprovalStarted(
        approvalId: "ap-1", qrUrl: "https://auth.example.com/approve/ap-1#s=x", number: "42", pollSecret: "poll",
        expiresIn: 120, interval: 5)

    @Test("43.3 the web polls: pending at the interval, slow_down 5 s more, then the session is stored")
    func test_43_3_webPollsUntilApproved() async throws {
        let user = UserInfo(
            id: "u-1", email: "a@example.com", emailVerified: true, nickname: nil,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        let tokens = TokenResponse(
            accessToken: "at", expiresIn: 3600, refreshToken: "rt", refreshExpiresIn: 86_400, sessionId: "s-1",
            user: user)
        let server = ScriptedLatchd([
            Self.refusal("VERIFICATION_REQUIRED", "authorization_pending"), Self.refusal("RATE_LIMITED", "slow_down"),
            Self.refusal("VERIFICATION_REQUIRED", "authorization_pending"),
            HTTPResponse(status: 200, headers: [:], body: try APIJSON.encoder().encode(tokens))
        ])
        let client = LatchClient(
            serverURL: URL(string: "https://auth.example.com")!, vault: InMemoryVault(), transport: server,
            dpopKeys: nil)
        let sleeps = Sleeps()

        let signedIn = try await client.waitForSignInApproval(Self.started) { await sleeps.add($0) }

        #expect(signedIn.id == "u-1")
        #expect(await sleeps.seconds == [5, 10, 10])
        let grants = await server.sent.compactMap { $0.body }.map {
            try? JSONDecoder().decode(TokenRequest.self, from: $0)
        }
        #expect(grants.count == 4)
        #expect(
            grants.allSatisfy { $0?.grantType == .approval && $0?.approvalId == "ap-1" && $0?.pollSecret == "poll" })
        #expect(client.currentState == .signedIn(user))
    }

    @Test("43.3 the web stops at access_denied and at expired_token")
    func test_43_3_webStopsWhenDeniedOrExpired() async throws {
        for (reason, end) in [("access_denied", ApprovalPollEnd.denied), ("expired_token", .expired)] {
            let server = ScriptedLatchd([
                Self.refusal("VERIFICATION_REQUIRED", "authorization_pending"), Self.refusal("X", reason)
            ])
            let client = LatchClient(
                serverURL: URL(string: "https://auth.example.com")!, vault: InMemoryVault(), transport: server,
                dpopKeys: nil)

            await #expect(throws: end) { try await client.waitForSignInApproval(Self.started) { _ in } }
            #expect(await server.sent.count == 2)
        }
    }
}
