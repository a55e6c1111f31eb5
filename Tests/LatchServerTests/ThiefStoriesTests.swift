import Foundation
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 28 §2: a thief who phished the password and the emailed sign-in code once (a fresh session on
/// his own device, nothing more) on an account older than the hold. Each of his three open doors is
/// closed: his own TOTP, the first fund password, a silent email swap.
@Suite("The thief's three doors (issue 28 §2)")
struct ThiefStoriesTests {
    static let alice = "alice@example.com"
    static let eve = ["id": "eve-laptop", "name": "Eve's laptop"]
    static let day: Double = 24 * 3600

    /// Alice's account, a day and a minute old; the thief's fresh session.
    static func thiefSignedIn(_ server: TestServer) async throws -> TokenResponse {
        try await server.signUp()
        server.clock.advance(by: day + 60)
        return try await server.signInConfirmingNewDevice(device: eve)
    }

    /// The mails to Alice that carry a freeze link (security notices), newest last.
    static func notices(_ server: TestServer, to address: String = alice) async -> [OutgoingMessage] {
        await server.mails(to: address).filter { $0.body.contains("/account#freeze=") }
    }

    static func freezeToken(in mail: OutgoingMessage) throws -> String {
        let range = try #require(mail.body.range(of: #"#freeze=[A-Za-z0-9_-]+"#, options: .regularExpression))
        return String(mail.body[range].dropFirst("#freeze=".count))
    }

    static func hold(_ server: TestServer, bearer: String) async throws -> SecurityHoldInfo? {
        let status = try await server.send(.GET, "/v1/me/security", bearer: bearer)
        return try status.decode(AccountSecurityStatus.self).holds.first
    }

    @Test(
        "28 §2 the thief's TOTP: activating it mails Alice at once and holds withdrawals; Alice's reset by email ends it, turns unusual sign-in checks back on and says what was kept",
        arguments: TestDatabase.all)
    func test_28_2_thiefsTOTPIsMailedHeldAndEndedByTheReset(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let thief = try await Self.thiefSignedIn(server)
            let before = await Self.notices(server).count
            let off = try await server.send(
                .PATCH, "/v1/me/security-settings", json: ["verify_unusual_sign_ins": false], bearer: thief.accessToken)
            _ = try await server.activateTOTP(bearer: thief.accessToken)
            try await server.setFundPassword(bearer: thief.accessToken)

            #expect(off.status == 200, "\(off.text)")
            let notices = await Self.notices(server).dropFirst(before)
            #expect(
                notices.count == 3, "the check turned off, the TOTP and the fund password: \(notices.map(\.subject))")
            #expect(
                notices.contains { $0.body.contains("Two-step verification (an authenticator app) was just turned on") }
            )
            #expect(notices.contains { $0.body.contains("Verification of unusual sign-ins was just turned off") })
            let hold = try await Self.hold(server, bearer: thief.accessToken)
            #expect(
                hold?.reason == "fund_password_added",
                "the later addition extends the hold: \(String(describing: hold))")
            let withdrawal = try await server.startVerification(bearer: thief.accessToken)
            #expect(withdrawal.status == 403 && withdrawal.errorCode == "SECURITY_HOLD", "\(withdrawal.text)")

            let reset = try await server.resetPassword(to: "Another-Horse-7")
            #expect(reset.status == 204, "\(reset.text)")
            // Every device is new after the reset: Alice's own is asked for a mailed code, not the thief's TOTP.
            let tokens = try await server.signInConfirmingNewDevice(
                password: "Another-Horse-7", device: TestServer.testDevice)
            let settings = try await server.send(.GET, "/v1/me/security-settings", bearer: tokens.accessToken)
            let security = try settings.decode(SecuritySettings.self)
            #expect(security.verifyUnusualSignIns, "\(settings.text)")
            let factors = try #require(security.factors, "\(settings.text)")
            #expect(!factors.totp, "the thief's TOTP is gone: \(settings.text)")
            let mail = try #require(await server.mails().last { $0.subject == "Your Latch password was reset" })
            #expect(mail.body.contains("Kept: the fund password."), "\(mail.body)")
            #expect(mail.body.contains("Choose a new anti-phishing code"), "\(mail.body)")
        }
    }

    @Test(
        "28 §2 the first fund password set by a session that did not register the account is mailed at once and held; the registering session's own setup on day one is not",
        arguments: TestDatabase.all)
    func test_28_2_firstFundPasswordIsMailedAndHeld(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let thief = try await Self.thiefSignedIn(server)
            let before = await Self.notices(server).count
            try await server.setFundPassword(bearer: thief.accessToken)

            let notices = await Self.notices(server).dropFirst(before)
            #expect(notices.count == 1 && notices.first?.body.contains("A fund password was just set") == true)
            #expect(notices.first?.lane == .notice)
            #expect(try await Self.hold(server, bearer: thief.accessToken)?.reason == "fund_password_added")
            let withdrawal = try await server.startVerification(bearer: thief.accessToken)
            #expect(withdrawal.status == 403 && withdrawal.errorCode == "SECURITY_HOLD", "\(withdrawal.text)")
        }
        try await withServer(database) { server in
            // A day-old account: a second session (the thief's) is held even on an account younger than the hold.
            let owner = try await server.signUp()
            try await server.setFundPassword(bearer: owner.accessToken)
            #expect(try await Self.hold(server, bearer: owner.accessToken) == nil, "setting up is not held")
            let thief = try await server.signInConfirmingNewDevice(device: Self.eve)
            _ = try await server.activateTOTP(bearer: thief.accessToken)
            #expect(try await Self.hold(server, bearer: thief.accessToken)?.reason == "totp_added")
        }
    }

    @Test(
        "28 §2 the email swap is never silent: removing the address needs a code mailed to it; the removed address gets the notice with a freeze link that works; the new address's notice goes to the previous one too",
        arguments: TestDatabase.all)
    func test_28_2_emailSwapIsNeverSilent(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let thief = try await Self.thiefSignedIn(server)
            // His phone as a second way in (mailed and held).
            _ = try await PhoneSignInTests.requestCode(server)
            let linked = try await IdentityLinkTests.link(
                server,
                [
                    "provider": "phone", "phone": PhoneSignInTests.phone,
                    "code": try await PhoneSignInTests.textedCode(server)
                ],
                bearer: thief.accessToken)
            #expect(linked.status == 201, "\(linked.text)")
            #expect(await Self.notices(server).last?.body.contains("A phone number was just linked") == true)

            let asked = try await server.send(.DELETE, "/v1/me/identities/email", bearer: thief.accessToken)
            let code = try await server.latestCode(to: Self.alice)
            let guessed = try await server.send(
                .DELETE, "/v1/me/identities/email", json: ["code": NewDeviceTests.code(differentFrom: code)],
                bearer: thief.accessToken)
            let me = try await server.send(.GET, "/v1/me", bearer: thief.accessToken)

            #expect(
                asked.status == 202 && (try? asked.decode(EmailLinkCodeSent.self))?.expiresIn == 600, "\(asked.text)")
            let codeMail = try #require(await server.mails().last)
            #expect(
                codeMail.subject.contains("remove this email"), "the code went to Alice's mailbox: \(codeMail.subject)")
            #expect(guessed.status == 400 && guessed.errorCode == "AUTH_003", "\(guessed.text)")
            #expect((try? me.decode(UserInfo.self))?.email == Self.alice, "the address stays without the code")

            // Had he the code (Alice's mailbox), the removal is still told to that mailbox.
            let removed = try await server.send(
                .DELETE, "/v1/me/identities/email", json: ["code": code], bearer: thief.accessToken)
            #expect(removed.status == 200 && removed.json["email"] == nil, "\(removed.text)")
            let removalNotice = try #require(await Self.notices(server).last)
            #expect(removalNotice.body.contains("This email address was just removed"), "\(removalNotice.body)")
            #expect(removalNotice.body.contains("the password that signed in with it"), "never silently")

            let start = try await IdentityLinkTests.link(
                server, ["provider": "email", "email": "eve@example.com", "password": "Eves-Horse-77"],
                bearer: thief.accessToken)
            #expect(start.status == 202, "\(start.text)")
            let added = try await IdentityLinkTests.link(
                server,
                [
                    "provider": "email", "email": "eve@example.com",
                    "code": try await server.latestCode(to: "eve@example.com")
                ],
                bearer: thief.accessToken)
            #expect(added.status == 201, "\(added.text)")
            let toPrevious = try #require(await Self.notices(server).last)
            #expect(toPrevious.body.contains("A new email address was just added"), "\(toPrevious.body)")

            // The removal notice's freeze link still works: the account freezes, the thief's session ends.
            let frozen = try await server.send(
                .POST, "/v1/freeze", json: ["token": try Self.freezeToken(in: removalNotice)])
            #expect(frozen.status == 202)
            let after = try await server.send(.GET, "/v1/me", bearer: thief.accessToken)
            #expect(after.status == 401, "\(after.text)")
        }
    }

    @Test(
        "28 §2 an account without an email gets its notices by SMS, with a freeze link",
        arguments: TestDatabase.all)
    func test_28_2_phoneOnlyAccountIsToldBySMS(database: TestDatabase) async throws {
        try await withServer(database) { server in
            _ = try await PhoneSignInTests.requestCode(server)
            let owner = try await PhoneSignInTests.smsSignIn(
                server, code: try await PhoneSignInTests.textedCode(server)
            )
            .decode(TokenResponse.self)
            try await server.setFundPassword(bearer: owner.accessToken)
            let set = try await server.send(
                .PUT, "/v1/me/anti-phishing-code", json: ["code": "Blue-Fox-42"], bearer: owner.accessToken)

            #expect(set.status == 204, "\(set.text)")
            let texts = await server.mails(to: PhoneSignInTests.phone).filter { $0.body.contains("/account#freeze=") }
            #expect(texts.count == 2, "\(texts.map(\.body))")
            #expect(texts.allSatisfy { $0.channel == "sms" && $0.lane == .notice })
        }
    }

    @Test(
        "28 §2 the notice budget is charged per session and never for the recovery path: twenty cheap changes by the thief leave the owner's reset working",
        arguments: TestDatabase.all)
    func test_28_2_thiefCannotSpendTheOwnersNoticeBudget(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.securityMailsPerHour = 5 }) { server in
            let thief = try await Self.thiefSignedIn(server)
            var refused: TestResponse?
            for index in 0..<20 {
                let set = try await server.send(
                    .PUT, "/v1/me/anti-phishing-code", json: ["code": "Code-\(index)"], bearer: thief.accessToken)
                if set.status == 429 {
                    refused = set
                    break
                }
            }
            #expect(refused?.errorCode == "RATE_LIMITED", "the thief's session ran out of its share")
            let owner = try await server.signIn().decode(TokenResponse.self)
            let ownersChange = try await server.send(
                .PUT, "/v1/me/anti-phishing-code", json: ["code": "Alice-Code-1"], bearer: owner.accessToken)
            #expect(ownersChange.status == 204, "another session's share is its own: \(ownersChange.text)")
            let reset = try await server.resetPassword(to: "Another-Horse-7")
            #expect(reset.status == 204, "the recovery path is never charged: \(reset.text)")
        }
    }

    @Test(
        "28 §2 LATCH_HOLD_ACTIONS holds a listed action on the recent-sign-in path too (export during a hold)",
        arguments: TestDatabase.all)
    func test_28_2_holdActionsHoldTheRecentSignInPath(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.holdActions = ["withdrawal", "export_account"] }) { server in
            let thief = try await Self.thiefSignedIn(server)
            try await server.setFundPassword(bearer: thief.accessToken)
            let export = try await server.send(.GET, "/v1/me/export", bearer: thief.accessToken)
            #expect(export.status == 403 && export.errorCode == "SECURITY_HOLD", "\(export.text)")
            #expect(export.errorBody?.action == "export_account")
        }
    }

    @Test(
        "28 §2 unbinding a device key and signing out everyone else are mailed",
        arguments: TestDatabase.all)
    func test_28_2_unbindAndSignOutOthersAreMailed(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let owner = try await server.signUp()
            let id = try await server.bindDevice(DeviceKey(), name: "Alice's iPhone", bearer: owner.accessToken)
            let before = await Self.notices(server).count
            let unbound = try await server.send(
                .DELETE, "/v1/device-credentials/\(id)", body: nil, bearer: owner.accessToken)
            let others = try await server.send(
                .DELETE, "/v1/sessions?scope=others", body: nil, bearer: owner.accessToken)

            #expect(unbound.status == 204 && others.status == 204)
            let notices = await Self.notices(server).dropFirst(before)
            #expect(notices.count == 2, "\(notices.map(\.body))")
            #expect(notices.first?.body.contains("Alice's iPhone") == true)
            #expect(notices.last?.body.contains("signed out every other device") == true)
        }
    }

    @Test(
        "28 §2 unfreezing expires the freeze links minted before the freeze: an old link cannot freeze the recovered account again",
        arguments: TestDatabase.all)
    func test_28_2_unfreezeExpiresOlderFreezeLinks(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let owner = try await server.signUp()
            for code in ["First-Code-1", "Second-Code-2"] {
                let set = try await server.send(
                    .PUT, "/v1/me/anti-phishing-code", json: ["code": code], bearer: owner.accessToken)
                try #require(set.status == 204, "\(set.text)")
            }
            let links = try await Self.notices(server).map(Self.freezeToken(in:))
            try #require(links.count == 2)
            server.clock.advance(by: 60)
            let frozen = try await server.send(.POST, "/v1/freeze", json: ["token": links[0]])
            #expect(frozen.status == 202)
            server.clock.advance(by: 60)
            let reset = try await server.resetPassword(to: "Another-Horse-7")
            #expect(reset.status == 204, "\(reset.text)")
            let refrozen = try await server.send(.POST, "/v1/freeze", json: ["token": links[1]])
            let signIn = try await server.signIn(password: "Another-Horse-7")

            #expect(refrozen.status == 202, "the answer is the same for every token")
            #expect(signIn.errorCode != "ACCOUNT_FROZEN", "the older link froze nothing: \(signIn.text)")
            let resetMail = try #require(await Self.notices(server).last)
            server.clock.advance(by: 60)
            let byNewLink = try await server.send(
                .POST, "/v1/freeze", json: ["token": try Self.freezeToken(in: resetMail)])
            #expect(byNewLink.status == 202)
            let frozenAgain = try await server.signIn(password: "Another-Horse-7")
            #expect(frozenAgain.errorCode == "ACCOUNT_FROZEN", "a newer link works: \(frozenAgain.text)")
        }
    }

    @Test("28 §2 LATCH_HOLD_ACTIONS refuses at start a step latchd never holds (the ways out of a takeover stay open)")
    func test_28_2_holdActionsRefuseWhatCannotBeHeld() throws {
        let base = ["LATCH_SECRET_KEY": Data(repeating: 1, count: 32).base64EncodedString()]
        for never in ["freeze", "password_reset", "withdrawal,sign_out"] {
            #expect(throws: ConfigurationError.self, "\(never)") {
                try LatchConfig.fromEnvironment(base.merging(["LATCH_HOLD_ACTIONS": never]) { $1 })
            }
        }
        // Every built-in action can be listed: each passes through a path that checks the hold.
        let all = VerificationAction.builtIn.map(\.rawValue).joined(separator: ",")
        let config = try LatchConfig.fromEnvironment(base.merging(["LATCH_HOLD_ACTIONS": all]) { $1 })
        #expect(config.holdActions.count == VerificationAction.builtIn.count)
    }

    @Test(
        "28 §2 every built-in action is held on its route: with all of them listed, a thief's addition pauses each (SECURITY_HOLD, never the action)",
        arguments: [TestDatabase.sqlite])
    func test_28_2_everyBuiltInActionIsHeld(database: TestDatabase) async throws {
        let all = VerificationAction.builtIn.map(\.rawValue)
        try await withServer(database, adjust: { $0.holdActions = all }) { server in
            let thief = try await Self.thiefSignedIn(server)
            try await server.setFundPassword(bearer: thief.accessToken)
            let attempts: [(VerificationAction, TestResponse)] = [
                (
                    .bindDevice,
                    try await server.send(
                        .POST, "/v1/device-credentials", json: ["public_key": DeviceKey().publicKey],
                        bearer: thief.accessToken)
                ),
                (.enableTOTP, try await server.send(.POST, "/v1/mfa/totp", body: nil, bearer: thief.accessToken)),
                (
                    .changeFundPassword,
                    try await server.send(
                        .PUT, "/v1/fund-password",
                        json: ["fund_password": "135790", "current_fund_password": VerificationSamples.fundPassword],
                        bearer: thief.accessToken)
                ),
                (.addPasskey, try await server.passkeyRegistrationOptions(bearer: thief.accessToken)),
                (
                    .setAntiPhishingCode,
                    try await server.send(
                        .PUT, "/v1/me/anti-phishing-code", json: ["code": "Eve-Code-1"], bearer: thief.accessToken)
                ),
                (
                    .disableUnusualSignInCheck,
                    try await server.send(
                        .PATCH, "/v1/me/security-settings", json: ["verify_unusual_sign_ins": false],
                        bearer: thief.accessToken)
                ),
                (.exportAccount, try await server.send(.GET, "/v1/me/export", bearer: thief.accessToken)),
                (.deleteAccount, try await server.send(.DELETE, "/v1/me", body: nil, bearer: thief.accessToken)),
                (
                    .unlinkIdentity,
                    try await server.send(.DELETE, "/v1/me/identities/email", body: nil, bearer: thief.accessToken)
                )
            ]
            for (action, answer) in attempts {
                #expect(
                    answer.status == 403 && answer.errorCode == "SECURITY_HOLD"
                        && answer.errorBody?.action == action.rawValue,
                    "\(action): \(answer.text)")
            }
        }
    }
}
