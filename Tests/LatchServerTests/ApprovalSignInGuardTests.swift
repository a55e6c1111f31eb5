import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 43 §1's guards around the QR sign-in: Face ID by the phone's device key, the owner's notice
/// naming the phone, DPoP binding from the request that asked, holds, and the approval's own rate limits.
@Suite("Phone approval sign-in guards (issue 43 §1)")
struct ApprovalSignInGuardTests {
    typealias Flow = ApprovalSignInTests

    @Test(
        "43 §1 Face ID by the phone's device key approves; the owner is told which phone let which client in, with a freeze link",
        arguments: TestDatabase.all)
    func test_43_1_faceIDApprovesAndTheOwnerIsToldWhichPhone(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let phone = try await Flow.boundPhone(server)
            let bearer = phone.tokens.accessToken
            let created = try await Flow.create(server)
            let token = try await Flow.faceIDProof(
                server, created, key: phone.key, credentialID: phone.credentialID, bearer: bearer)
            let approved = try await Flow.decide(
                server, created, "approve", number: created.number, token: token, bearer: bearer)
            #expect(approved.status == 200, "\(approved.text)")
            let signedIn = try await Flow.poll(server, created)
            #expect(signedIn.status == 200, "\(signedIn.text)")

            let notice = try #require(await server.mails().last { $0.subject.contains("approved on your phone") })
            #expect(notice.body.contains("Chrome") && notice.body.contains("macOS"), "names the client: \(notice.body)")
            #expect(notice.body.contains("127.0.0.1"), "and its address")
            #expect(notice.body.contains("freeze"), "with a freeze link")
            let types = try await server.eventTypes(bearer: bearer)
            #expect(types.contains("sign_in_approved") && types.contains("new_device_signed_in"), "\(types)")
            #expect(types.filter { $0 == "signed_in" }.count == 1, "the web's session: \(types)")
        }
    }

    @Test("43 §1 a phone without a bound device key decides nothing", arguments: TestDatabase.all)
    func test_43_1_phoneWithoutDeviceKeyDecidesNothing(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            try await server.setFundPassword(bearer: alice.accessToken)
            let created = try await Flow.create(server)
            let token = try await Flow.proof(server, created, bearer: alice.accessToken)
            let refused = try await Flow.decide(
                server, created, "approve", number: created.number, token: token, bearer: alice.accessToken)
            #expect(refused.status == 409 && refused.errorCode == "NO_VERIFICATION_METHOD", "\(refused.text)")
            let denied = try await Flow.decide(server, created, "deny", bearer: alice.accessToken)
            #expect(denied.status == 409, "\(denied.text)")
            let polled = try await Flow.poll(server, created)
            #expect(Flow.pollError(polled) == "authorization_pending", "\(polled.text)")
        }
    }

    @Test(
        "43 §1 asked with a DPoP proof: only a poll proving the same key collects, and the session is bound to it",
        arguments: TestDatabase.all)
    func test_43_1_dpopBindingFromTheRequestThatAsked(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let phone = try await Flow.boundPhone(server)
            let bearer = phone.tokens.accessToken
            let web = TestDPoPKey()
            let asked = try await server.send(
                .POST, "/v1/approvals", json: Flow.web,
                headers: [("DPoP", try web.proof("POST", server.baseURL + "/v1/approvals", now: server.clock.now))])
            try #require(asked.status == 201, "\(asked.text)")
            let created = try asked.decode(ApprovalCreated.self)
            let token = try await Flow.faceIDProof(
                server, created, key: phone.key, credentialID: phone.credentialID, bearer: bearer)
            let approved = try await Flow.decide(
                server, created, "approve", number: created.number, token: token, bearer: bearer)
            #expect(approved.status == 200, "\(approved.text)")

            // The poll secret alone (a copy of it) collects nothing, nor does another key.
            let bare = try await Flow.poll(server, created)
            #expect(bare.status == 400 && bare.errorCode == "DPOP_INVALID", "\(bare.text)")
            let body: [String: Any] = [
                "grant_type": "approval", "approval_id": created.approvalId, "poll_secret": created.pollSecret
            ]
            let thief = TestDPoPKey()
            let stolen = try await server.send(
                .POST, "/v1/token", json: body,
                headers: [("DPoP", try thief.proof("POST", server.baseURL + "/v1/token", now: server.clock.now))])
            #expect(stolen.status == 400 && stolen.errorCode == "DPOP_INVALID", "\(stolen.text)")

            let collected = try await server.send(
                .POST, "/v1/token", json: body,
                headers: [("DPoP", try web.proof("POST", server.baseURL + "/v1/token", now: server.clock.now))])
            #expect(collected.status == 200, "\(collected.text)")
            let tokens = try collected.decode(TokenResponse.self)
            #expect(tokens.tokenType == "DPoP", "bound to the web's key")
            let me = try await server.getBound("/v1/me", token: tokens.accessToken, key: web)
            #expect(me.status == 200, "\(me.text)")
            let withoutProof = try await server.send(.GET, "/v1/me", bearer: tokens.accessToken)
            #expect(withoutProof.status == 401, "a bound token is nothing without its key")
        }
    }

    @Test(
        "43 §1 a held account approves nothing, and a hold ends a sign-in approved but not yet collected",
        arguments: TestDatabase.all)
    func test_43_1_holdRefusesAndEndsApprovals(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let phone = try await Flow.boundPhone(server)
            let bearer = phone.tokens.accessToken
            let holds = server.app.latch.holds

            // Approved, then a hold starts before the web collects: the web gets nothing.
            let first = try await Flow.create(server)
            let token = try await Flow.faceIDProof(
                server, first, key: phone.key, credentialID: phone.credentialID, bearer: bearer)
            let approved = try await Flow.decide(
                server, first, "approve", number: first.number, token: token, bearer: bearer)
            #expect(approved.status == 200, "\(approved.text)")
            try await holds.start(
                .passwordChanged, user: try #require(UUID(uuidString: phone.tokens.user.id)), ip: nil,
                now: server.clock.now.timeIntervalSince1970,
                on: server.app.db)
            let ended = try await Flow.poll(server, first)
            #expect(Flow.pollError(ended) == "access_denied", "\(ended.text)")

            // During the hold the phone approves nothing.
            let second = try await Flow.create(server)
            let proof = try await Flow.faceIDProof(
                server, second, key: phone.key, credentialID: phone.credentialID, bearer: bearer)
            let held = try await Flow.decide(
                server, second, "approve", number: second.number, token: proof, bearer: bearer)
            #expect(held.status == 403 && held.errorCode == "SECURITY_HOLD", "\(held.text)")
            let waiting = try await Flow.poll(server, second)
            #expect(Flow.pollError(waiting) == "authorization_pending", "\(waiting.text)")
        }
    }

    @Test(
        "43 §1 a freeze after the phone approved: the web collects nothing", arguments: TestDatabase.all)
    func test_43_1_freezeEndsAnApprovedSignIn(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let phone = try await Flow.boundPhone(server)
            let bearer = phone.tokens.accessToken
            let created = try await Flow.create(server)
            let token = try await Flow.faceIDProof(
                server, created, key: phone.key, credentialID: phone.credentialID, bearer: bearer)
            let approved = try await Flow.decide(
                server, created, "approve", number: created.number, token: token, bearer: bearer)
            #expect(approved.status == 200, "\(approved.text)")
            try await AdminService.console(on: server.app, language: .en).freeze(phone.tokens.user.id)
            let polled = try await Flow.poll(server, created)
            #expect(polled.status == 400 && Flow.pollError(polled) == "access_denied", "\(polled.text)")
        }
    }

    @Test(
        "43 §1 approvals are rate limited per address and per asking device (token buckets)",
        arguments: [TestDatabase.sqlite])
    func test_43_1_rateLimitedPerAddressAndPerDevice(database: TestDatabase) async throws {
        try await withServer(
            database,
            adjust: {
                $0.rateLimits = .standard
                $0.trustedProxies = TrustedProxies(parsing: "127.0.0.0/8, ::1/128")!
            }
        ) { server in
            func ask(from address: String, device: String) async throws -> TestResponse {
                var body = Flow.web
                body["device"] = ["id": device, "name": "Mac"]
                return try await server.send(
                    .POST, "/v1/approvals", json: body, headers: [("X-Forwarded-For", address)])
            }
            // One address: its burst, then 429 whatever device it names.
            for index in 0..<10 {
                let asked = try await ask(from: "198.51.100.1", device: "web-\(index)")
                #expect(asked.status == 201, "\(index): \(asked.text)")
            }
            let flooded = try await ask(from: "198.51.100.1", device: "web-new")
            #expect(flooded.status == 429 && flooded.errorCode == "RATE_LIMITED", "\(flooded.text)")
            #expect(flooded.errorBody?.retryAfter ?? 0 >= 1, "\(flooded.text)")

            // One device id: its burst across addresses, then 429 from a fresh address too.
            for index in 0..<10 {
                let asked = try await ask(from: "203.0.113.\(index + 1)", device: "roaming")
                #expect(asked.status == 201, "\(index): \(asked.text)")
            }
            let roaming = try await ask(from: "203.0.113.200", device: "roaming")
            #expect(roaming.status == 429 && roaming.errorCode == "RATE_LIMITED", "\(roaming.text)")
        }
    }
}
