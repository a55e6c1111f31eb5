import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 43 §2: a verification started by one session (the web) is approved on the phone: the phone
/// sees the action, its parameters and three numbers, signs with its device key and the right number,
/// and only the initiating session collects the token.
@Suite("Push approval of an action (issue 43 §2)")
struct PushApprovalTests {
    /// Alice's phone (signed up, device key bound) and a second session of hers (the web).
    struct Setup {
        let phone: TokenResponse
        let key: DeviceKey
        let credentialID: String
        let web: TokenResponse
    }

    static func setup(_ server: TestServer) async throws -> Setup {
        let phone = try await ApprovalSignInTests.boundPhone(server)
        let signedIn = try await server.signIn()
        try #require(signedIn.status == 200, "web sign-in: \(signedIn.text)")
        return Setup(
            phone: phone.tokens, key: phone.key, credentialID: phone.credentialID,
            web: try signedIn.decode(TokenResponse.self))
    }

    static func ask(_ server: TestServer, bearer: String) async throws -> TestResponse {
        try await server.send(
            .POST, "/v1/verifications",
            json: ["action": "withdrawal", "parameters": VerificationSamples.withdrawal, "approve_on": "device"]
                as [String: Any], bearer: bearer)
    }

    /// The phone's attempt: the device key's signature over the offer it was shown, with `number`.
    static func approve(_ server: TestServer, _ setup: Setup, id: String, number: String?) async throws
        -> TestResponse
    {
        let viewed = try await server.send(.GET, "/v1/verifications/\(id)", bearer: setup.phone.accessToken)
        try #require(viewed.status == 200, "phone view: \(viewed.text)")
        let offer = try #require((try? viewed.decode(VerificationView.self))?.methods?.first, "\(viewed.text)")
        let signature = try setup.key.signVerification(
            action: "withdrawal", parameters: VerificationSamples.withdrawal,
            challengeID: try #require(offer.challengeId), challenge: try #require(offer.challenge))
        var body: [String: Any] = ["method": "biometric", "credential_id": setup.credentialID, "signature": signature]
        if let number { body["number"] = number }
        return try await server.send(
            .POST, "/v1/verifications/\(id)/attempts", json: body, bearer: setup.phone.accessToken)
    }

    @Test(
        "43 §2 the whole flow: the web asks, the phone sees the action and three numbers, approves with Face ID and the number, only the web collects the token once",
        arguments: TestDatabase.all)
    func test_43_2_wholeFlow(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let setup = try await Self.setup(server)
            let asked = try await Self.ask(server, bearer: setup.web.accessToken)
            #expect(asked.status == 201, "\(asked.text)")
            let started = try #require(try? asked.decode(StartedOnDevice.self), "\(asked.text)")
            let id = started.verification.verificationId
            let number = try #require(started.number)
            #expect(number.count == 2 && started.interval == 2)

            let listed = try await server.send(.GET, "/v1/approvals", bearer: setup.phone.accessToken)
            let entries = (try? listed.decode(ApprovalsPage.self))?.approvals ?? []
            #expect(entries.count == 1 && entries.first?.verification_id == id, "\(listed.text)")

            let viewed = try await server.send(.GET, "/v1/verifications/\(id)", bearer: setup.phone.accessToken)
            let view = try? viewed.decode(VerificationView.self)
            #expect(view?.state == "pending", "\(viewed.text)")
            #expect(view?.parameters == VerificationSamples.withdrawal)
            let numbers = view?.numbers ?? []
            #expect(numbers.count == 3 && numbers.contains(number), "\(viewed.text)")
            // Untyped: the token is absent, and a typed optional reads present-and-null as nil too.
            #expect(viewed.json["verification_token"] == nil)

            // Without the number the phone approves nothing.
            let bare = try await Self.approve(server, setup, id: id, number: nil)
            #expect(bare.status == 422, "\(bare.text)")
            let approved = try await Self.approve(server, setup, id: id, number: number)
            #expect(
                approved.status == 200 && (try? approved.decode(PhoneApproved.self))?.approved == true,
                "\(approved.text)")
            // Untyped: the token is absent, and a typed optional reads present-and-null as nil too.
            #expect(approved.json["verification_token"] == nil, "the phone gets no token")

            // The phone's view never carries the token; the web's first poll does, once.
            let phoneAgain = try await server.send(.GET, "/v1/verifications/\(id)", bearer: setup.phone.accessToken)
            // Untyped `verification_token`: absent, which a typed optional does not tell from null.
            #expect(
                phoneAgain.json["verification_token"] == nil
                    && (try? phoneAgain.decode(VerificationView.self))?.state == "approved")
            let polled = try await server.send(.GET, "/v1/verifications/\(id)", bearer: setup.web.accessToken)
            let token = try #require(
                (try? polled.decode(VerificationView.self))?.verification_token, "\(polled.text)")
            let again = try await server.send(.GET, "/v1/verifications/\(id)", bearer: setup.web.accessToken)
            // Untyped: the token is absent, and a typed optional reads present-and-null as nil too.
            #expect(again.json["verification_token"] == nil, "collected once")
            let redeemed = try await server.redeem(token, bearer: setup.web.accessToken)
            #expect(redeemed.status == 200, "\(redeemed.text)")

            // Another user sees nothing of it.
            let bob = try await server.signUp("bob@example.com")
            let stranger = try await server.send(.GET, "/v1/verifications/\(id)", bearer: bob.accessToken)
            #expect(stranger.status == 404)
        }
    }

    @Test(
        "43 §2 a wrong number ends the verification for good, and the owner is told with a freeze link",
        arguments: TestDatabase.all)
    func test_43_2_wrongNumberEndsIt(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let setup = try await Self.setup(server)
            let asked = try await Self.ask(server, bearer: setup.web.accessToken)
            let started = try asked.decode(StartedOnDevice.self)
            let id = started.verification.verificationId
            let number = try #require(started.number)
            let viewed = try await server.send(.GET, "/v1/verifications/\(id)", bearer: setup.phone.accessToken)
            let wrong = try #require((try? viewed.decode(VerificationView.self))?.numbers?.first { $0 != number })
            let refused = try await Self.approve(server, setup, id: id, number: wrong)
            #expect(refused.status == 400 && refused.errorCode == "AUTH_003", "\(refused.text)")
            #expect(refused.errorBody?.attemptsRemaining == 0)
            let state = try await server.send(.GET, "/v1/verifications/\(id)", bearer: setup.web.accessToken)
            #expect((try? state.decode(VerificationView.self))?.state == "ended", "\(state.text)")
            let types = try await server.eventTypes(bearer: setup.phone.accessToken)
            #expect(types.contains("approval_wrong_number"), "\(types)")
            let notice = await server.mails().last { $0.subject.contains("wrong number") }
            #expect(notice?.body.contains("freeze") == true, "the owner is told, with a freeze link")
        }
    }

    @Test(
        "43 §2 a denial ends it and mails the owner a freeze link; the list no longer shows it",
        arguments: TestDatabase.all)
    func test_43_2_denialEndsItAndTellsTheOwner(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let setup = try await Self.setup(server)
            let asked = try await Self.ask(server, bearer: setup.web.accessToken)
            let id = try asked.decode(StartedOnDevice.self).verification.verificationId
            let denied = try await server.send(
                .POST, "/v1/verifications/\(id)/deny", body: nil, bearer: setup.phone.accessToken)
            #expect(
                denied.status == 200 && (try? denied.decode(DeniedAnswer.self))?.state == "denied",
                "\(denied.text)")
            let state = try await server.send(.GET, "/v1/verifications/\(id)", bearer: setup.web.accessToken)
            #expect((try? state.decode(VerificationView.self))?.state == "denied")
            let listed = try await server.send(.GET, "/v1/approvals", bearer: setup.phone.accessToken)
            #expect((try? listed.decode(ApprovalsPage.self))?.approvals?.isEmpty == true, "\(listed.text)")
            let notice = await server.mails().last { $0.subject.contains("denied an action") }
            #expect(notice?.body.contains("freeze") == true)
            let twice = try await server.send(
                .POST, "/v1/verifications/\(id)/deny", body: nil, bearer: setup.phone.accessToken)
            #expect(twice.status == 404)
        }
    }

    @Test("43 §2 push bombing: at most 3 approval requests per user per 10 minutes", arguments: TestDatabase.all)
    func test_43_2_bombingLimit(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let setup = try await Self.setup(server)
            for index in 1...3 {
                let asked = try await Self.ask(server, bearer: setup.web.accessToken)
                #expect(asked.status == 201, "\(index): \(asked.text)")
                server.clock.advance(by: 60)
            }
            let fourth = try await Self.ask(server, bearer: setup.web.accessToken)
            #expect(fourth.status == 429 && fourth.errorCode == "RATE_LIMITED", "\(fourth.text)")
            let wait = try #require(fourth.errorBody?.retryAfter)
            #expect(wait > 0 && wait <= 600 - 180 + 1, "until the oldest leaves the window: \(wait)")
            server.clock.advance(by: Double(wait))
            let later = try await Self.ask(server, bearer: setup.web.accessToken)
            #expect(later.status == 201, "\(later.text)")
        }
    }

    @Test(
        "43 §2 a freeze, a hold or a reset ends every pending approval: the phone can no longer approve",
        arguments: TestDatabase.all)
    func test_43_2_holdAndFreezeEndPendingApprovals(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let setup = try await Self.setup(server)
            let asked = try await Self.ask(server, bearer: setup.web.accessToken)
            let started = try asked.decode(StartedOnDevice.self)
            let id = started.verification.verificationId
            let number = try #require(started.number)
            let viewed = try await server.send(.GET, "/v1/verifications/\(id)", bearer: setup.phone.accessToken)
            #expect(viewed.status == 200)
            try await server.app.latch.holds.start(
                .passwordChanged, user: try #require(UUID(uuidString: setup.phone.user.id)), ip: nil,
                now: server.clock.now.timeIntervalSince1970, on: server.app.db)
            let state = try await server.send(.GET, "/v1/verifications/\(id)", bearer: setup.web.accessToken)
            #expect((try? state.decode(VerificationView.self))?.state == "ended", "\(state.text)")
            let offer = try #require((try? viewed.decode(VerificationView.self))?.methods?.first)
            let signature = try setup.key.signVerification(
                action: "withdrawal", parameters: VerificationSamples.withdrawal,
                challengeID: try #require(offer.challengeId), challenge: try #require(offer.challenge))
            let late = try await server.send(
                .POST, "/v1/verifications/\(id)/attempts",
                json: [
                    "method": "biometric", "credential_id": setup.credentialID, "signature": signature, "number": number
                ], bearer: setup.phone.accessToken)
            #expect(late.status == 400 && late.errorCode == "AUTH_003", "\(late.text)")
        }
    }

    @Test("43 §2 approving on the phone needs a bound device key", arguments: TestDatabase.all)
    func test_43_2_needsADeviceKey(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            try await server.setFundPassword(bearer: alice.accessToken)
            let asked = try await Self.ask(server, bearer: alice.accessToken)
            #expect(asked.status == 409 && asked.errorCode == "NO_VERIFICATION_METHOD", "\(asked.text)")
            let unknown = try await server.send(
                .POST, "/v1/verifications",
                json: ["action": "withdrawal", "parameters": VerificationSamples.withdrawal, "approve_on": "watch"]
                    as [String: Any], bearer: alice.accessToken)
            #expect(unknown.status == 422, "\(unknown.text)")
        }
    }
}

/// `POST /v1/verifications`' answer with `approve_on: "device"`: LatchCore's `VerificationStarted`, plus
/// the number the initiator shows and how often it polls.
private struct StartedOnDevice: Decodable {
    var verification: VerificationStarted
    var number: String?
    var interval: Int?

    enum CodingKeys: String, CodingKey { case number, interval }

    init(from decoder: any Decoder) throws {
        verification = try VerificationStarted(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decodeIfPresent(String.self, forKey: .number)
        interval = try container.decodeIfPresent(Int.self, forKey: .interval)
    }
}

/// `GET /v1/approvals`, as far as the tests read it.
private struct ApprovalsPage: Decodable {
    struct Entry: Decodable { var verification_id: String? }
    var approvals: [Entry]?
}

/// `GET /v1/verifications/{id}` of a push approval, as far as the tests read it; the offers in LatchCore's
/// wire type.
private struct VerificationView: Decodable {
    var state: String?
    var parameters: [String: String]?
    var numbers: [String]?
    var methods: [VerificationMethodOffer]?
    var verification_token: String?
}

/// The phone's attempt that approved a verification started elsewhere (`{"approved": true}`).
private struct PhoneApproved: Decodable {
    var approved: Bool?
}

/// `POST /v1/verifications/{id}/deny`'s answer.
private struct DeniedAnswer: Decodable {
    var verification_id: String?
    var state: String?
}
