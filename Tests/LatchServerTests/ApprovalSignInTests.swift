import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 43 §1: sign in on the web with the phone. The web asks for an approval without signing in, the
/// signed-in phone views it with the scan secret and decides it (the page's number and a verification for
/// `approve_sign_in` bound to the approval), and the web's poll of `POST /v1/token` answers as RFC 8628 does.
@Suite("Phone approval sign-in (issue 43 §1)")
struct ApprovalSignInTests {
    /// What the web client sends to ask for an approval.
    static var web: [String: Any] {
        [
            "kind": "sign_in", "client": ["name": "Chrome", "platform": "macOS"],
            "device": ["id": "web-1", "name": "Alice's Mac"]
        ]
    }

    /// `POST /v1/approvals`, required to succeed.
    static func create(_ server: TestServer) async throws -> ApprovalCreated {
        let created = try await server.send(.POST, "/v1/approvals", json: web)
        try #require(created.status == 201, "create approval: \(created.text)")
        return try created.decode(ApprovalCreated.self)
    }

    /// The scan secret the QR URL carries.
    static func scanSecret(_ created: ApprovalCreated) throws -> String {
        try #require(created.qrUrl.components(separatedBy: "#s=").last)
    }

    static func view(_ server: TestServer, _ created: ApprovalCreated, secret: String? = nil, bearer: String)
        async throws -> TestResponse
    {
        let secret = try secret ?? scanSecret(created)
        return try await server.send(
            .GET, "/v1/approvals/\(created.approvalId)?scan_secret=\(secret)", bearer: bearer)
    }

    static func decide(
        _ server: TestServer, _ created: ApprovalCreated, _ decision: String, number: String? = nil,
        token: String? = nil, bearer: String
    ) async throws -> TestResponse {
        var body: [String: Any] = ["decision": decision, "scan_secret": try scanSecret(created)]
        if let number { body["number"] = number }
        if let token { body["verification_token"] = token }
        return try await server.send(.POST, "/v1/approvals/\(created.approvalId)/decision", json: body, bearer: bearer)
    }

    static func poll(_ server: TestServer, _ created: ApprovalCreated) async throws -> TestResponse {
        try await server.send(
            .POST, "/v1/token",
            json: ["grant_type": "approval", "approval_id": created.approvalId, "poll_secret": created.pollSecret])
    }

    /// A verification token of `bearer`'s for approving `created` (by fund password).
    static func proof(_ server: TestServer, _ created: ApprovalCreated, bearer: String) async throws -> String {
        try await server.verificationToken(
            "approve_sign_in", parameters: ["approval_id": created.approvalId], bearer: bearer)
    }

    /// A verification token for approving `created`, signed by the phone's device key (Face ID on the
    /// seed's page).
    static func faceIDProof(
        _ server: TestServer, _ created: ApprovalCreated, key: DeviceKey, credentialID: String, bearer: String
    ) async throws -> String {
        let parameters = ["approval_id": created.approvalId]
        let started = try await server.startedVerification("approve_sign_in", parameters: parameters, bearer: bearer)
        let offer = try #require(started.methods.first { $0.type == .biometric })
        let signature = try key.signVerification(
            action: "approve_sign_in", parameters: parameters, challengeID: try #require(offer.challengeId),
            challenge: try #require(offer.challenge))
        let passed = try await server.attempt(
            started.verificationId,
            VerificationAttempt(method: .biometric, credentialId: credentialID, signature: signature), bearer: bearer)
        try #require(passed.status == 200, "Face ID attempt: \(passed.text)")
        return try passed.decode(VerificationPassed.self).verificationToken
    }

    /// The RFC 8628 error a poll answered (`reasons`' first).
    static func pollError(_ answer: TestResponse) -> String? {
        answer.errorBody?.reasons?.first
    }

    /// Alice signed in on her phone, with a bound device key and a fund password to verify by.
    static func phone(_ server: TestServer, email: String = "alice@example.com") async throws -> TokenResponse {
        try await boundPhone(server, email: email).tokens
    }

    /// Alice's phone: its session, its bound device key and that key's credential id.
    static func boundPhone(_ server: TestServer, email: String = "alice@example.com") async throws
        -> (tokens: TokenResponse, key: DeviceKey, credentialID: String)
    {
        let alice = try await server.signUp(email)
        try await server.setFundPassword(bearer: alice.accessToken)
        let key = DeviceKey()
        let credentialID = try await server.bindDevice(key, bearer: alice.accessToken)
        return (alice, key, credentialID)
    }

    @Test(
        "43 §1 the whole flow: create, view, approve with a verification, poll → a new session",
        arguments: TestDatabase.all)
    func test_43_1_wholeFlow(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await Self.phone(server)
            let created = try await Self.create(server)
            #expect(created.qrUrl.hasPrefix("http://latch.test/approve/\(created.approvalId)#s="))
            #expect(created.number.count == 2 && created.number.allSatisfy(\.isNumber))
            #expect(created.expiresIn == 120 && created.interval == 1)

            // Before the phone decides, the web is told to wait.
            let pending = try await Self.poll(server, created)
            #expect(pending.status == 400 && Self.pollError(pending) == "authorization_pending", "\(pending.text)")

            // The phone sees what asks, with three numbers, one of them the page's.
            let viewed = try await Self.view(server, created, bearer: alice.accessToken)
            #expect(viewed.status == 200, "\(viewed.text)")
            let details = try viewed.decode(ApprovalDetails.self)
            #expect(details.clientName == "Chrome" && details.clientPlatform == "macOS")
            #expect(details.numbers.count == 3 && details.numbers.contains(created.number))
            #expect(details.sameNetwork, "both asked from 127.0.0.1")

            // Approving without a verification is refused and changes nothing.
            let unproven = try await Self.decide(
                server, created, "approve", number: created.number, bearer: alice.accessToken)
            #expect(unproven.status == 403 && unproven.errorCode == "VERIFICATION_REQUIRED", "\(unproven.text)")

            let token = try await Self.proof(server, created, bearer: alice.accessToken)
            let approved = try await Self.decide(
                server, created, "approve", number: created.number, token: token, bearer: alice.accessToken)
            #expect(approved.status == 200 && approved.json["state"] as? String == "approved", "\(approved.text)")

            server.clock.advance(by: 5)
            let signedIn = try await Self.poll(server, created)
            #expect(signedIn.status == 200, "\(signedIn.text)")
            let tokens = try signedIn.decode(TokenResponse.self)
            #expect(tokens.user.id == alice.user.id)
            let me = try await server.send(.GET, "/v1/me", bearer: tokens.accessToken)
            #expect(me.status == 200)

            // Single use: the same poll again gets nothing.
            server.clock.advance(by: 5)
            let replayed = try await Self.poll(server, created)
            #expect(replayed.status == 400 && Self.pollError(replayed) == "expired_token", "\(replayed.text)")
        }
    }

    @Test("43 §1 polled faster than the interval: slow_down", arguments: TestDatabase.all)
    func test_43_1_slowDown(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let created = try await Self.create(server)
            _ = try await Self.poll(server, created)
            server.clock.advance(by: 0.2)
            let fast = try await Self.poll(server, created)
            #expect(fast.status == 400 && Self.pollError(fast) == "slow_down", "\(fast.text)")
            server.clock.advance(by: 5)
            let patient = try await Self.poll(server, created)
            #expect(Self.pollError(patient) == "authorization_pending", "\(patient.text)")
        }
    }

    @Test("43 §1 a wrong number ends the approval for good and is on the owner's log", arguments: TestDatabase.all)
    func test_43_1_wrongNumberEndsIt(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await Self.phone(server)
            let created = try await Self.create(server)
            let details = try await Self.view(server, created, bearer: alice.accessToken).decode(ApprovalDetails.self)
            let wrong = try #require(details.numbers.first { $0 != created.number })
            let token = try await Self.proof(server, created, bearer: alice.accessToken)

            let refused = try await Self.decide(
                server, created, "approve", number: wrong, token: token, bearer: alice.accessToken)
            #expect(refused.status == 400 && refused.errorCode == "AUTH_003", "\(refused.text)")

            // The right number afterwards approves nothing, and the web is denied.
            let again = try await Self.decide(
                server, created, "approve", number: created.number, token: token, bearer: alice.accessToken)
            #expect(again.status == 404, "\(again.text)")
            let polled = try await Self.poll(server, created)
            #expect(Self.pollError(polled) == "access_denied", "\(polled.text)")
            let events = try await server.send(.GET, "/v1/security-events", bearer: alice.accessToken)
            #expect(events.securityEventTypes.contains("approval_wrong_number"), "\(events.text)")
            let notice = await server.mails().last { $0.subject.contains("wrong number") }
            #expect(notice?.body.contains("freeze") == true, "the owner is told, with a freeze link")
        }
    }

    @Test("43 §1 a denial ends it: the web's poll is access_denied", arguments: TestDatabase.all)
    func test_43_1_denyIsAccessDenied(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await Self.phone(server)
            let created = try await Self.create(server)
            let denied = try await Self.decide(server, created, "deny", bearer: alice.accessToken)
            #expect(denied.status == 200 && denied.json["state"] as? String == "denied", "\(denied.text)")
            let polled = try await Self.poll(server, created)
            #expect(polled.status == 400 && Self.pollError(polled) == "access_denied", "\(polled.text)")
        }
    }

    @Test(
        "43 §1 an approval lives 120 s: then expired_token, and the phone can no longer approve",
        arguments: TestDatabase.all)
    func test_43_1_expiresAfter120Seconds(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await Self.phone(server)
            let created = try await Self.create(server)
            let token = try await Self.proof(server, created, bearer: alice.accessToken)
            server.clock.advance(by: 120)
            let late = try await Self.decide(
                server, created, "approve", number: created.number, token: token, bearer: alice.accessToken)
            #expect(late.status == 404, "\(late.text)")
            let polled = try await Self.poll(server, created)
            #expect(polled.status == 400 && Self.pollError(polled) == "expired_token", "\(polled.text)")
        }
    }

    @Test("43 §1 a scan secret wrong three times ends the approval", arguments: TestDatabase.all)
    func test_43_1_wrongScanSecretThriceEndsIt(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await Self.phone(server)
            let created = try await Self.create(server)
            for _ in 1...3 {
                let wrong = try await Self.view(server, created, secret: "wrong", bearer: alice.accessToken)
                #expect(wrong.status == 404)
            }
            let right = try await Self.view(server, created, bearer: alice.accessToken)
            #expect(right.status == 404, "ended: \(right.text)")
            let polled = try await Self.poll(server, created)
            #expect(Self.pollError(polled) == "access_denied", "\(polled.text)")
        }
    }

    @Test("43 §1 another user's proof approves nothing", arguments: TestDatabase.all)
    func test_43_1_anotherUsersProofRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await Self.phone(server)
            let bob = try await Self.phone(server, email: "bob@example.com")
            let created = try await Self.create(server)
            let bobsProof = try await Self.proof(server, created, bearer: bob.accessToken)
            let refused = try await Self.decide(
                server, created, "approve", number: created.number, token: bobsProof, bearer: alice.accessToken)
            #expect(refused.status == 403 && refused.errorCode == "VERIFICATION_INVALID", "\(refused.text)")
            let polled = try await Self.poll(server, created)
            #expect(Self.pollError(polled) == "authorization_pending", "\(polled.text)")
        }
    }

    @Test("43 §1 a frozen account approves nothing", arguments: TestDatabase.all)
    func test_43_1_frozenAccountApprovesNothing(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await Self.phone(server)
            let created = try await Self.create(server)
            let token = try await Self.proof(server, created, bearer: alice.accessToken)
            try await AdminService.console(on: server.app, language: .en).freeze(alice.user.id)
            let refused = try await Self.decide(
                server, created, "approve", number: created.number, token: token, bearer: alice.accessToken)
            #expect(refused.status != 200, "\(refused.text)")
            let polled = try await Self.poll(server, created)
            #expect(Self.pollError(polled) == "authorization_pending", "\(polled.text)")
        }
    }
}
