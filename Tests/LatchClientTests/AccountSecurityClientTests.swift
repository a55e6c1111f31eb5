import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 19 in the SDK, against a stand-in that answers CONTRACT-19 as latchd does: the account's
/// security state, the anti-phishing code, the freeze (signed in and by link), ACCOUNT_FROZEN, the
/// password reset's second factor, and SECURITY_HOLD on the verification page.
@Suite("Account security in the SDK (issue 19)")
struct AccountSecurityClientTests {
    static let startedAt = ContainmentServer.startedAt
    static let holdUntil = ContainmentServer.holdUntil
    static let totpCode = ContainmentServer.totpCode

    // MARK: - GET /v1/me/security

    @Test func test_19_accountSecurityReadsHoldsAndAntiPhishingCode() async throws {
        let bed = AccountSecurityTestBed()
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
        let bed = AccountSecurityTestBed()
        try await bed.signIn()

        try await bed.client.setAntiPhishingCode("MyCode42")

        #expect(await bed.sentBody("PUT /v1/me/anti-phishing-code") == ["code": "MyCode42"])
        #expect(try await bed.client.accountSecurity().antiPhishingCode == "MyCode42")
    }

    @Test func test_19_4_setAntiPhishingCodeLaterNeedsVerificationToken() async throws {
        let bed = AccountSecurityTestBed()
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
        let bed = AccountSecurityTestBed()
        try await bed.signIn()

        await #expect {
            try await bed.client.setAntiPhishingCode("abc")
        } throws: { error in
            let error = error as? LatchClientError
            return error?.code == .validationFailed && error?.serverError?.field == "code"
        }
    }

    @Test func test_19_4_removeAntiPhishingCode() async throws {
        let bed = AccountSecurityTestBed()
        try await bed.signIn()
        try await bed.client.setAntiPhishingCode("MyCode42")
        await bed.server.set(recentSignIn: false)

        try await bed.client.removeAntiPhishingCode(verificationToken: "proof-1")

        #expect(await bed.sentBody("DELETE /v1/me/anti-phishing-code") == ["verification_token": "proof-1"])
        #expect(try await bed.client.accountSecurity().antiPhishingCode == nil)
    }

    // MARK: - §3 freeze

    @Test func test_19_3_freezeAccountSignsOutHereAndDropsBiometrics() async throws {
        let bed = AccountSecurityTestBed()
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
        let bed = AccountSecurityTestBed()

        try await bed.client.freeze(linkToken: "link-token-1")

        #expect(await bed.sentBody("POST /v1/freeze") == ["token": "link-token-1"])
        #expect(await bed.server.authorizations["POST /v1/freeze"] == [nil])
    }

    @Test func test_19_3_frozenAccountSignInIsATypedError() async throws {
        let bed = AccountSecurityTestBed()
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
        let bed = AccountSecurityTestBed()
        try await bed.signIn()
        await bed.server.set(frozen: true)

        await #expect {
            _ = try await bed.client.refreshSession()
        } throws: { ($0 as? LatchClientError)?.isAccountFrozen == true }

        #expect(bed.client.currentState == .signedOut)
        #expect(await bed.vault.read("session") == .notFound)
    }

    @Test func test_19_3_resetPasswordOfFrozenAccountAsksForTheSecondFactor() async throws {
        let bed = AccountSecurityTestBed()
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
        let bed = AccountSecurityTestBed()
        try await bed.signIn()
        await bed.server.set(holdsWithdrawals: true)

        await #expect {
            _ = try await bed.client.startVerification(VerificationRequest(action: "withdrawal", parameters: [:]))
        } throws: { error in
            (error as? LatchClientError)?.securityHold
                == VerificationHold(action: "withdrawal", reason: "password_reset", holdUntil: Self.holdUntil)
        }
    }

    @Test func test_19_2_verifyShowsTheHoldPageAndCloseIsCancel() async throws {
        let bed = AccountSecurityTestBed()
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
        let bed = AccountSecurityTestBed()
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
