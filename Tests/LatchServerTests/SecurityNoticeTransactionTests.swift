import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 20 §1: every security notice is queued in the transaction of its change. When it cannot be
/// queued (the notice lane is full), the request answers 503 `delivery_queue_full` with `retry_after`
/// and nothing of the change is left: not the change, not its event, not its hold, not its freeze link.
///
/// The table below has one scenario per `SecurityNotice` kind: a new kind without a scenario fails
/// `test_20_1_everyNoticeKindHasAScenario`, so no notice can be added without this guarantee being shown.
@Suite("Security notices commit with their change (issue 20 §1)")
struct SecurityNoticeTransactionTests {
    static let alice = "alice@example.com"
    static let adminKey = "admin-0123456789abcdef0123456789abcdef"

    /// What a scenario has prepared on the development server: the request that makes the change, sent
    /// to the server whose notice lane is full.
    typealias Act = @Sendable (TestServer) async throws -> TestResponse

    /// Prepares the change on the development server (signed-up Alice and her fresh tokens; the
    /// providers' stand-in) and returns the request that makes it.
    typealias Scenario = @Sendable (TestServer, TokenResponse, ProviderStandIn) async throws -> Act

    /// A policy whose `payout` time-locks new addresses (issue 30 §1), for the `newValueLocked` scenario.
    static let lockPolicy = try! VerificationPolicy(
        json: Data(#"{"actions": {"payout": {"new_value_lock": {"parameter": "address", "duration": "24h"}}}}"#.utf8))

    static let scenarios: [SecurityNotice: Scenario] = [
        .newDeviceSignIn: { server, tokens, _ in
            let off = try await server.send(
                .PATCH, "/v1/me/security-settings", json: ["verify_unusual_sign_ins": false], bearer: tokens.accessToken
            )
            try #require(off.status == 200 || off.status == 204, "\(off.text)")
            return { try await $0.signIn(device: ["id": "eves-laptop", "name": "Laptop"]) }
        },
        .change(.passwordReset): { server, _, _ in
            let asked = try await server.send(.POST, "/v1/password/forgot", json: ["email": alice])
            try #require(asked.status == 202, "\(asked.text)")
            let code = try await server.latestCode(to: alice)
            return {
                try await $0.send(
                    .POST, "/v1/password/reset", json: ["email": alice, "code": code, "new_password": "Another-Horse-7"]
                )
            }
        },
        .change(.passwordChanged): { _, tokens, _ in
            {
                try await $0.send(
                    .POST, "/v1/password/change",
                    json: ["current_password": "Correct-Horse-9", "new_password": "Another-Horse-7"],
                    bearer: tokens.accessToken)
            }
        },
        .change(.passkeyAdded): { server, tokens, _ in
            var authenticator = SoftwareAuthenticator()
            let options = try await server.passkeyCreationOptions(bearer: tokens.accessToken)
            let credential = try authenticator.register(options: options.options, origin: Passkeys.origin)
            return {
                try await $0.postPasskey(
                    challengeID: options.challengeId, credential: credential, bearer: tokens.accessToken)
            }
        },
        .change(.passkeyRemoved): { server, tokens, _ in
            var authenticator = SoftwareAuthenticator()
            let created = try await server.registerPasskey(&authenticator, bearer: tokens.accessToken)
            return { try await $0.send(.DELETE, "/v1/passkeys/\(created.id)", body: nil, bearer: tokens.accessToken) }
        },
        .change(.deviceKeyAdded): { _, tokens, _ in
            let key = DeviceKey()
            return {
                try await $0.send(
                    .POST, "/v1/device-credentials", json: ["public_key": key.publicKey, "device_name": "iPhone"],
                    bearer: tokens.accessToken)
            }
        },
        .change(.totpRemoved): { server, tokens, _ in
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            server.clock.advance(by: 30)
            let started = try await server.startedVerification(
                "disable_totp", parameters: [:], bearer: tokens.accessToken)
            let passed = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .totp, code: app.code(at: server.clock.now)),
                bearer: tokens.accessToken)
            let proof = try passed.decode(VerificationPassed.self).verificationToken
            return {
                try await $0.send(
                    .DELETE, "/v1/mfa/totp", json: ["verification_token": proof], bearer: tokens.accessToken)
            }
        },
        .change(.totpResetByOperator): { server, tokens, _ in
            _ = try await server.activateTOTP(bearer: tokens.accessToken)
            return { try await $0.send(.DELETE, "/v1/admin/users/\(tokens.user.id)/totp", bearer: adminKey) }
        },
        .change(.fundPasswordChanged): { server, tokens, _ in
            try await server.setFundPassword(bearer: tokens.accessToken)
            return {
                try await $0.send(
                    .PUT, "/v1/fund-password",
                    json: ["fund_password": "135792", "current_fund_password": VerificationSamples.fundPassword],
                    bearer: tokens.accessToken)
            }
        },
        .change(.fundPasswordResetByOperator): { server, tokens, _ in
            try await server.setFundPassword(bearer: tokens.accessToken)
            return { try await $0.send(.DELETE, "/v1/admin/users/\(tokens.user.id)/fund-password", bearer: adminKey) }
        },
        .change(.emailAdded): { server, _, _ in
            // An account without an email (signed up by phone) adds one with a mailed code.
            _ = try await PhoneSignInTests.requestCode(server, "+8613800138009")
            let phoneUser = try await PhoneSignInTests.smsSignIn(
                server, "+8613800138009", code: try await PhoneSignInTests.textedCode(server, "+8613800138009")
            ).decode(TokenResponse.self)
            let sent = try await IdentityLinkTests.link(
                server, ["provider": "email", "email": "carol@example.com", "password": "Correct-Horse-9"],
                bearer: phoneUser.accessToken)
            try #require(sent.status == 202, "\(sent.text)")
            let code = try await server.latestCode(to: "carol@example.com")
            return {
                try await IdentityLinkTests.link(
                    $0, ["provider": "email", "email": "carol@example.com", "code": code], bearer: phoneUser.accessToken
                )
            }
        },
        .change(.phoneAdded): { server, tokens, _ in
            _ = try await PhoneSignInTests.requestCode(server)
            let code = try await PhoneSignInTests.textedCode(server)
            return {
                try await IdentityLinkTests.link(
                    $0, ["provider": "phone", "phone": PhoneSignInTests.phone, "code": code], bearer: tokens.accessToken
                )
            }
        },
        .change(.identityLinked): { _, tokens, providers in
            providers.issueWeChatCode("LINK", for: .init(openid: "o-alice", unionid: "u-alice", nickname: "Alice"))
            return {
                try await IdentityLinkTests.link($0, ["provider": "wechat", "code": "LINK"], bearer: tokens.accessToken)
            }
        },
        .change(.antiPhishingCodeSet): { _, tokens, _ in
            {
                try await $0.send(
                    .PUT, "/v1/me/anti-phishing-code", json: ["code": "Blue-Heron"], bearer: tokens.accessToken)
            }
        },
        .change(.antiPhishingCodeRemoved): { server, tokens, _ in
            let set = try await server.send(
                .PUT, "/v1/me/anti-phishing-code", json: ["code": "Blue-Heron"], bearer: tokens.accessToken)
            try #require(set.status == 204, "\(set.text)")
            return { try await $0.send(.DELETE, "/v1/me/anti-phishing-code", body: nil, bearer: tokens.accessToken) }
        },
        .change(.newDeviceNoticeTurnedOff): { _, tokens, _ in
            {
                try await $0.send(
                    .PATCH, "/v1/me/security-settings", json: ["notify_new_devices": false], bearer: tokens.accessToken)
            }
        },
        // Issue 28's notices.
        .change(.totpAdded): { server, tokens, _ in
            let enrolled = try await server.send(.POST, "/v1/mfa/totp", body: nil, bearer: tokens.accessToken)
            let secret = try #require(Base32.decode(try enrolled.decode(TOTPEnrollment.self).secret))
            let code = TOTP(secret: secret).code(at: server.clock.now)
            return {
                try await $0.send(.POST, "/v1/mfa/totp/activate", json: ["code": code], bearer: tokens.accessToken)
            }
        },
        .change(.fundPasswordAdded): { _, tokens, _ in
            {
                try await $0.send(
                    .PUT, "/v1/fund-password", json: ["fund_password": VerificationSamples.fundPassword],
                    bearer: tokens.accessToken)
            }
        },
        .change(.deviceKeyRemoved): { server, tokens, _ in
            let id = try await server.bindDevice(DeviceKey(), bearer: tokens.accessToken)
            return { try await $0.send(.DELETE, "/v1/device-credentials/\(id)", body: nil, bearer: tokens.accessToken) }
        },
        .change(.identityUnlinked): { server, tokens, providers in
            providers.issueWeChatCode("LINK", for: .init(openid: "o-alice", unionid: "u-alice", nickname: "Alice"))
            let linked = try await IdentityLinkTests.link(
                server, ["provider": "wechat", "code": "LINK"], bearer: tokens.accessToken)
            try #require(linked.status == 201, "\(linked.text)")
            return { try await $0.send(.DELETE, "/v1/me/identities/wechat", body: nil, bearer: tokens.accessToken) }
        },
        .change(.phoneRemoved): { server, tokens, _ in
            try await linkPhone(server, tokens)
            return { try await $0.send(.DELETE, "/v1/me/identities/phone", body: nil, bearer: tokens.accessToken) }
        },
        .change(.emailRemoved): { server, tokens, _ in
            try await linkPhone(server, tokens)
            let asked = try await server.send(.DELETE, "/v1/me/identities/email", body: nil, bearer: tokens.accessToken)
            try #require(asked.status == 202, "\(asked.text)")
            let code = try await server.latestCode(to: alice)
            return {
                try await $0.send(.DELETE, "/v1/me/identities/email", json: ["code": code], bearer: tokens.accessToken)
            }
        },
        .change(.unusualSignInCheckTurnedOff): { _, tokens, _ in
            {
                try await $0.send(
                    .PATCH, "/v1/me/security-settings", json: ["verify_unusual_sign_ins": false],
                    bearer: tokens.accessToken)
            }
        },
        .change(.otherSessionsEnded): { server, tokens, _ in
            _ = try await server.signIn()
            return { try await $0.send(.DELETE, "/v1/sessions?scope=others", body: nil, bearer: tokens.accessToken) }
        },
        .change(.newValueLocked): { _, tokens, _ in
            {
                try await $0.send(
                    .POST, "/v1/verifications",
                    json: ["action": "payout", "parameters": ["address": "TNewAddress9"]] as [String: Any],
                    bearer: tokens.accessToken)
            }
        },
        .change(.sessionEnded): { server, tokens, _ in
            _ = try await server.signIn()
            let sessions = try await server.send(.GET, "/v1/sessions", bearer: tokens.accessToken)
                .decode([SessionInfo].self)
            let other = try #require(sessions.first { !$0.current })
            return { try await $0.send(.DELETE, "/v1/sessions/\(other.id)", body: nil, bearer: tokens.accessToken) }
        }
    ]

    /// Links Alice's phone (a second way in).
    static func linkPhone(_ server: TestServer, _ tokens: TokenResponse) async throws {
        _ = try await PhoneSignInTests.requestCode(server)
        let linked = try await IdentityLinkTests.link(
            server,
            [
                "provider": "phone", "phone": PhoneSignInTests.phone,
                "code": try await PhoneSignInTests.textedCode(server)
            ],
            bearer: tokens.accessToken)
        try #require(linked.status == 201, "\(linked.text)")
    }

    @Test("review_1 every kind of security notice has a scenario below (a new kind must show the guarantee)")
    func test_20_1_everyNoticeKindHasAScenario() {
        let missing = Set(SecurityNotice.allCases).subtracting(Self.scenarios.keys)
        #expect(missing.isEmpty, "notice kinds without a full-queue scenario: \(missing.map(\.rawValue).sorted())")
    }

    @Test(
        "review_1 with the notice lane full every security change answers 503 delivery_queue_full and changes nothing",
        arguments: TestDatabase.all)
    func test_20_1_fullQueueRefusesEveryChange(database: TestDatabase) async throws {
        for notice in SecurityNotice.allCases {
            let scenario = try #require(Self.scenarios[notice])
            try await Self.refusedAndUnchanged(notice, scenario, database: database)
        }
    }

    /// Prepares `scenario` on a development server, then sends its request to a server on the same
    /// database with mail over SMTP and no room in the queue: 503 and the account exactly as before.
    static func refusedAndUnchanged(_ notice: SecurityNotice, _ scenario: Scenario, database: TestDatabase)
        async throws
    {
        let providers = try await ProviderStandIn.start(clock: TestClock())
        let clock = TestClock()
        let development = try await TestServer.start(
            database, clock: clock, signInProviders: providers.providers,
            adjust: {
                $0.adminKeys = [adminKey]
                $0.verificationPolicy = lockPolicy
            })
        let act: Act
        do {
            let tokens = try await development.signUp()
            act = try await scenario(development, tokens, providers)
        } catch {
            try? await development.stop()
            try? await providers.stop()
            throw error
        }
        try await development.stop()
        let full = try await TestServer.start(
            database, clock: clock, sharing: development.location, signInProviders: providers.providers,
            adjust: {
                $0.adminKeys = [adminKey]
                $0.verificationPolicy = lockPolicy
                $0.smtpURL = "smtp+insecure://127.0.0.1:9"
                $0.mailFrom = "latch@latch.test"
                $0.deliveryQueueCapacity = 0
            })
        do {
            let sql = full.app.db as! any SQLDatabase
            let before = try await accountState(sql)
            let answer = try await act(full)
            let after = try await accountState(sql)

            #expect(answer.status == 503, "\(notice.rawValue): \(answer.status) \(answer.text)")
            #expect(answer.errorBody?.reasons == ["delivery_queue_full"], "\(notice.rawValue): \(answer.text)")
            #expect((answer.errorBody?.retryAfter ?? 0) > 0, "\(notice.rawValue): retry_after")
            #expect(before == after, "\(notice.rawValue) changed the account although its notice was refused")
        } catch {
            try? await full.stop()
            try? await providers.stop()
            throw error
        }
        try await full.stop()
        try await providers.stop()
    }

    /// What any security change writes, read from every table that holds it: the accounts' secrets,
    /// codes and addresses, their ways in, second factors, sessions, known devices, holds, events,
    /// freeze links and queued mail.
    static func accountState(_ sql: any SQLDatabase) async throws -> [String] {
        var state: [String] = []
        for table in [
            "users", "passkeys", "device_credentials", "identities", "fund_passwords", "totp_credentials",
            "recovery_codes", "known_devices", "sessions", "refresh_tokens", "security_holds", "security_events",
            "freeze_tokens", "delivery_jobs", "policy_value_locks"
        ] {
            let rows = try await sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").all()
            state.append("\(table): \(try rows.first?.decode(column: "n", as: Int.self) ?? -1)")
        }
        for row in try await sql.raw(
            "SELECT email, password_hash, anti_phishing_code, frozen_at FROM users ORDER BY id"
        ).all() {
            state.append(
                [
                    try row.decode(column: "email", as: String?.self) ?? "-",
                    try row.decode(column: "password_hash", as: String?.self) ?? "-",
                    try row.decode(column: "anti_phishing_code", as: String?.self) ?? "-",
                    (try row.decode(column: "frozen_at", as: Double?.self)).map { "\($0)" } ?? "-"
                ].joined(separator: " "))
        }
        for row in try await sql.raw("SELECT password_hash FROM fund_passwords").all() {
            state.append("fund: \(try row.decode(column: "password_hash", as: String.self))")
        }
        let live = try await sql.raw("SELECT COUNT(*) AS n FROM sessions WHERE revoked_at IS NULL").all()
        state.append("live sessions: \(try live.first?.decode(column: "n", as: Int.self) ?? -1)")
        return state
    }

    @Test(
        "review_1 with the development outbox (no SMTP) a change and its notice behave as before",
        arguments: TestDatabase.all)
    func test_20_1_developmentOutboxUnchanged(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let set = try await server.send(
                .PUT, "/v1/me/anti-phishing-code", json: ["code": "Blue-Heron"], bearer: tokens.accessToken)
            let mails = await server.mails(to: Self.alice)

            #expect(set.status == 204, "\(set.text)")
            #expect(mails.last?.body.contains("Blue-Heron") == true, "the notice shows the new code")
            #expect(mails.last?.lane == .notice)
        }
    }
}
