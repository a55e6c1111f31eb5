import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 19 in the SDK, against a stand-in that answers CONTRACT-19 as latchd does: the account's
/// security state, the anti-phishing code, the freeze (signed in and by link), ACCOUNT_FROZEN, the
/// password reset's second factor, and SECURITY_HOLD on the verification page.
@Suite("Account security in the SDK (issue 19)")
struct AccountSecurityClientTests {
    static let startedAt = Date(timeIntervalSince1970: 1_795_665_600)
    static let holdUntil = startedAt.addingTimeInterval(24 * 3600)
    static let totpCode = "246810"

    /// `SessionFakeServer` plus issue 19's endpoints.
    actor ContainmentServer: HTTPTransport {
        let inner = SessionFakeServer()
        var recentSignIn = true
        var antiPhishingCode: String?
        var frozen = false
        var holdsWithdrawals = false
        private(set) var bodies: [String: [Data?]] = [:]
        private(set) var authorizations: [String: [String?]] = [:]

        func set(recentSignIn: Bool) { self.recentSignIn = recentSignIn }
        func set(frozen: Bool) { self.frozen = frozen }
        func set(holdsWithdrawals: Bool) { self.holdsWithdrawals = holdsWithdrawals }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let path = SessionFakeServer.path(of: request)
            let key = "\(request.method) \(path)"
            bodies[key, default: []].append(request.body)
            authorizations[key, default: []].append(request.headers["Authorization"])
            switch (request.method, path) {
            case ("POST", "/v1/freeze"):
                return SessionFakeServer.json(202, #"{"status":"accepted"}"#)
            case ("POST", "/v1/password/reset"):
                return reset(request)
            case ("POST", "/v1/token") where frozen:
                return Self.frozenAnswer
            case ("GET", "/v1/me/security"), ("PUT", "/v1/me/anti-phishing-code"),
                ("DELETE", "/v1/me/anti-phishing-code"), ("POST", "/v1/me/freeze"), ("POST", "/v1/verifications"):
                guard let token = try await live(request) else { return SessionFakeServer.sessionExpired }
                return try await signedIn(request, key: key, token: token)
            default:
                return try await inner.send(request)
            }
        }

        private func signedIn(_ request: HTTPRequest, key: String, token: String) async throws -> HTTPResponse {
            switch key {
            case "GET /v1/me/security":
                let holds =
                    holdsWithdrawals
                    ? [
                        SecurityHoldInfo(
                            actions: ["withdrawal"], reason: "password_reset", startedAt: startedAt,
                            holdUntil: holdUntil)
                    ] : []
                return try SessionFakeServer.json(
                    200, AccountSecurityStatus(holds: holds, antiPhishingCode: antiPhishingCode))
            case "PUT /v1/me/anti-phishing-code":
                let update = try JSONDecoder().decode(AntiPhishingCodeUpdate.self, from: request.body ?? Data())
                guard (4...20).contains(update.code.count), !update.code.contains(" ") else {
                    return SessionFakeServer.json(
                        422, #"{"error":"VALIDATION_FAILED","message":"Invalid input.","field":"code"}"#)
                }
                guard recentSignIn || update.verificationToken == "proof-1" else { return Self.verificationRequired }
                antiPhishingCode = update.code
                return HTTPResponse(status: 204)
            case "DELETE /v1/me/anti-phishing-code":
                let proof = request.body.flatMap { try? JSONDecoder().decode([String: String].self, from: $0) }
                guard recentSignIn || proof?["verification_token"] == "proof-1" else {
                    return Self.verificationRequired
                }
                antiPhishingCode = nil
                return HTTPResponse(status: 204)
            case "POST /v1/me/freeze":
                frozen = true
                await inner.refuse(accessToken: token)
                return HTTPResponse(status: 204)
            default: // POST /v1/verifications
                guard holdsWithdrawals else {
                    return try SessionFakeServer.json(
                        201,
                        VerificationStarted(
                            verificationId: "v-1", methods: [VerificationMethodOffer(type: .fundPassword)],
                            preferred: .fundPassword, expiresIn: 300))
                }
                let body = APIErrorBody(
                    error: "SECURITY_HOLD", message: "For your security, this action is paused.",
                    details: LatchErrorDetails(holdUntil: holdUntil, reason: "password_reset", action: "withdrawal"))
                return try SessionFakeServer.json(403, body)
            }
        }

        private func reset(_ request: HTTPRequest) -> HTTPResponse {
            guard let reset = try? JSONDecoder().decode(ResetPasswordRequest.self, from: request.body ?? Data()) else {
                return SessionFakeServer.json(400, #"{"error":"MALFORMED_BODY","message":"x"}"#)
            }
            if frozen {
                guard let second = reset.secondFactor else {
                    return SessionFakeServer.json(
                        403,
                        #"{"error":"VERIFICATION_REQUIRED","message":"Please verify it is you before doing this.","method":"totp","field":"second_factor"}"#
                    )
                }
                guard second == totpCode else {
                    return SessionFakeServer.json(
                        400, #"{"error":"AUTH_003","message":"The verification code is wrong or has expired."}"#)
                }
                frozen = false
            }
            return HTTPResponse(status: 204)
        }

        /// The bearer token when the inner server still accepts it.
        private func live(_ request: HTTPRequest) async throws -> String? {
            var probe = request
            probe.method = "GET"
            probe.url = URL(string: "https://auth.example.com/v1/me")!
            probe.body = nil
            guard try await inner.send(probe).status == 200 else { return nil }
            return SessionFakeServer.bearer(of: request)
        }

        static let verificationRequired = SessionFakeServer.json(
            403,
            #"{"error":"VERIFICATION_REQUIRED","message":"Please verify it is you before doing this.","field":"verification_token"}"#
        )
        static let frozenAnswer = SessionFakeServer.json(
            403,
            #"{"error":"ACCOUNT_FROZEN","message":"This account is frozen. Reset your password by email to recover it."}"#
        )
    }

    struct Bed {
        let server = ContainmentServer()
        let vault = InMemoryVault()
        let clock = SessionTestClock(AccountSecurityClientTests.startedAt.addingTimeInterval(1))
        let client: LatchClient

        init() {
            client = LatchClient(
                serverURL: URL(string: "https://auth.example.com")!, vault: vault, transport: server,
                acceptLanguage: "zh-Hans", clock: clock.now)
        }

        func signIn() async throws {
            try await client.signIn(with: await server.inner.issueTokens())
        }

        func sentBody(_ key: String) async -> [String: String]? {
            guard let data = await server.bodies[key]?.last ?? nil else { return nil }
            return try? JSONDecoder().decode([String: String].self, from: data)
        }
    }

    // MARK: - GET /v1/me/security

    @Test func test_19_accountSecurityReadsHoldsAndAntiPhishingCode() async throws {
        let bed = Bed()
        try await bed.signIn()
        await bed.server.set(holdsWithdrawals: true)

        let status = try await bed.client.accountSecurity()

        #expect(status.antiPhishingCode == nil)
        #expect(status.holds.map(\.actions) == [["withdrawal"]])
        #expect(status.holds.first?.knownReason == .passwordReset)
        #expect(status.holds.first?.holdUntil == Self.holdUntil)
    }

    // MARK: - §4 anti-phishing code

    @Test func test_19_4_setAntiPhishingCodeRecentlySignedIn() async throws {
        let bed = Bed()
        try await bed.signIn()

        try await bed.client.setAntiPhishingCode("MyCode42")

        #expect(await bed.sentBody("PUT /v1/me/anti-phishing-code") == ["code": "MyCode42"])
        #expect(try await bed.client.accountSecurity().antiPhishingCode == "MyCode42")
    }

    @Test func test_19_4_setAntiPhishingCodeLaterNeedsVerificationToken() async throws {
        let bed = Bed()
        try await bed.signIn()
        await bed.server.set(recentSignIn: false)

        // Without a proof the server asks for a verification of set_anti_phishing_code.
        await #expect {
            try await bed.client.setAntiPhishingCode("MyCode42")
        } throws: { ($0 as? LatchClientError)?.code == .verificationRequired }

        // With the proof's token it is set.
        try await bed.client.setAntiPhishingCode("MyCode42", verificationToken: "proof-1")
        #expect(
            await bed.sentBody("PUT /v1/me/anti-phishing-code")
                == ["code": "MyCode42", "verification_token": "proof-1"])
        #expect(LatchClient.setAntiPhishingCodeAction == "set_anti_phishing_code")
    }

    @Test func test_19_4_refusedAntiPhishingCodeNamesTheField() async throws {
        let bed = Bed()
        try await bed.signIn()

        await #expect {
            try await bed.client.setAntiPhishingCode("abc")
        } throws: { error in
            let error = error as? LatchClientError
            return error?.code == .validationFailed && error?.serverError?.field == "code"
        }
    }

    @Test func test_19_4_removeAntiPhishingCode() async throws {
        let bed = Bed()
        try await bed.signIn()
        try await bed.client.setAntiPhishingCode("MyCode42")
        await bed.server.set(recentSignIn: false)

        try await bed.client.removeAntiPhishingCode(verificationToken: "proof-1")

        #expect(await bed.sentBody("DELETE /v1/me/anti-phishing-code") == ["verification_token": "proof-1"])
        #expect(try await bed.client.accountSecurity().antiPhishingCode == nil)
    }

    // MARK: - §3 freeze

    @Test func test_19_3_freezeAccountSignsOutHereAndDropsBiometrics() async throws {
        let bed = Bed()
        try await bed.signIn()
        try await BiometricEnrollmentStore(vault: bed.vault).remember(
            BiometricBinding(credentialID: "cred-1", biometry: .faceID), domainState: Data("state-A".utf8))

        try await bed.client.freezeAccount()

        #expect(bed.client.currentState == .signedOut)
        #expect(await bed.vault.read("session") == .notFound)
        #expect(await BiometricEnrollmentStore(vault: bed.vault).binding() == nil)
        #expect(await bed.server.bodies["POST /v1/me/freeze"]?.count == 1)
        #expect(await bed.server.authorizations["POST /v1/me/freeze"]?.first??.hasPrefix("Bearer ") == true)
    }

    @Test func test_19_3_freezeLinkNeedsNoSignIn() async throws {
        let bed = Bed()

        try await bed.client.freeze(linkToken: "link-token-1")

        #expect(await bed.sentBody("POST /v1/freeze") == ["token": "link-token-1"])
        #expect(await bed.server.authorizations["POST /v1/freeze"] == [nil])
    }

    @Test func test_19_3_frozenAccountSignInIsATypedError() async throws {
        let bed = Bed()
        await bed.server.set(frozen: true)

        await #expect {
            _ = try await bed.client.signIn(email: SessionFakeServer.alice.email!, password: SessionFakeServer.password)
        } throws: { error in
            guard case .accountFrozen(let server)? = error as? LatchClientError else { return false }
            let typed = error as! LatchClientError
            return server.status == 403 && typed.isAccountFrozen && typed.code == .accountFrozen
                && !typed.isRetryable && typed.message(in: .zhHans).hasPrefix("This account is frozen")
        }
        #expect(bed.client.currentState == .signedOut)
    }

    @Test func test_19_3_refreshRefusedAsFrozenSignsOut() async throws {
        let bed = Bed()
        try await bed.signIn()
        await bed.server.set(frozen: true)

        await #expect {
            _ = try await bed.client.refreshSession()
        } throws: { ($0 as? LatchClientError)?.isAccountFrozen == true }

        #expect(bed.client.currentState == .signedOut)
        #expect(await bed.vault.read("session") == .notFound)
    }

    @Test func test_19_3_resetPasswordOfFrozenAccountAsksForTheSecondFactor() async throws {
        let bed = Bed()
        await bed.server.set(frozen: true)

        // Without the second factor: a typed "needs the second factor".
        await #expect {
            try await bed.client.resetPassword(email: "alice@example.com", code: "111111", newPassword: "Another-7")
        } throws: { ($0 as? LatchClientError)?.needsSecondFactor == true }

        // A wrong one: AUTH_003.
        await #expect {
            try await bed.client.resetPassword(
                email: "alice@example.com", code: "111111", newPassword: "Another-7", secondFactor: "000000")
        } throws: { ($0 as? LatchClientError)?.code == .wrongCode }

        // The right one unfreezes.
        try await bed.client.resetPassword(
            email: "alice@example.com", code: "111111", newPassword: "Another-7", secondFactor: Self.totpCode)
        #expect(await bed.sentBody("POST /v1/password/reset")?["second_factor"] == Self.totpCode)
        #expect(await bed.server.frozen == false)
        // Other refusals do not read as "needs the second factor".
        #expect(
            LatchClientError.server(.init(status: 403, rawCode: "VERIFICATION_REQUIRED", message: "x"))
                .needsSecondFactor == false)
    }

    // MARK: - §2 the hold on the verification page

    @Test func test_19_2_startVerificationRefusedWithTheHold() async throws {
        let bed = Bed()
        try await bed.signIn()
        await bed.server.set(holdsWithdrawals: true)

        await #expect {
            _ = try await bed.client.startVerification(VerificationRequest(action: "withdrawal", parameters: [:]))
        } throws: { error in
            (error as? LatchClientError)?.securityHold
                == VerificationHold(action: "withdrawal", reason: "password_reset", holdUntil: Self.holdUntil)
        }
    }

    /// Shows nothing; records the screens and closes the hold page.
    actor ClosingPresenter: VerificationPresenter {
        private(set) var screens: [VerificationScreen] = []
        private(set) var closing: VerificationAnnouncement?

        func present(_ screen: VerificationScreen, respond: VerificationResponder) {
            screens.append(screen)
            if screen.kind == .securityHold || screen.kind == .fundPassword { respond(.tapped(.cancel)) }
        }

        func dismiss(announcing announcement: VerificationAnnouncement) { closing = announcement }
        func openSettings() {}
    }

    @Test func test_19_2_verifyShowsTheHoldPageAndCloseIsCancel() async throws {
        let bed = Bed()
        try await bed.signIn()
        await bed.server.set(holdsWithdrawals: true)
        let presenter = ClosingPresenter()

        let result = await bed.client.verify(
            VerificationContext(action: "withdrawal", parameters: ["amount": "1.00"]),
            authenticator: SimulatedAuthenticator(kind: .faceID), keys: SoftwareDeviceKeyStore(vault: bed.vault),
            presenter: presenter, language: .zhHans, timeZone: TimeZone(identifier: "Asia/Shanghai")!)

        #expect(result == .cancelled)
        let hold = try #require(await presenter.screens.last)
        #expect(hold.kind == .securityHold)
        // The hold's length comes from GET /v1/me/security; the time left from the client's clock.
        #expect(hold.message == "为保障资金安全，安全设置变更后24小时内暂停提现")
        #expect(hold.countdown?.remaining == "剩余 23:59:59")
        #expect(await presenter.closing?.text == "已取消验证")
    }

    @Test func test_19_2_verifyWithoutHoldOffersMethods() async throws {
        let bed = Bed()
        try await bed.signIn()
        let presenter = ClosingPresenter()

        let result = await bed.client.verify(
            VerificationContext(action: "withdrawal"), authenticator: SimulatedAuthenticator(kind: .faceID),
            keys: SoftwareDeviceKeyStore(vault: bed.vault), presenter: presenter, language: .zhHans)

        #expect(result == .cancelled)
        #expect(await presenter.screens.map(\.kind).contains(.fundPassword))
        #expect(await presenter.screens.map(\.kind).contains(.securityHold) == false)
    }
}
