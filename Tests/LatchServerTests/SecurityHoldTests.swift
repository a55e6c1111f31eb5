import FluentKit
import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOCore
import NIOHTTP1
import SQLKit
import Testing

/// Issue 19 §2: after a security change the held actions (`LATCH_HOLD_ACTIONS`) are paused for
/// `LATCH_SECURITY_HOLD_HOURS`; other actions are not; a new account setting up starts none.
@Suite("Security hold (issue 19 §2)")
struct SecurityHoldTests {
    static let hour: Double = 3600
    static let day: Double = 24 * 3600

    /// A server whose account is older than the hold, signed in afresh (recent) with a fund password.
    private func established(_ server: TestServer) async throws -> TokenResponse {
        let first = try await server.signUp()
        try await server.setFundPassword(bearer: first.accessToken)
        server.clock.advance(by: Self.day + 60)
        return try await server.signIn().decode(TokenResponse.self)
    }

    @Test(
        "19 §2 a password change holds withdrawals for 24 h: SECURITY_HOLD with hold_until, reason and action before any method; other actions go on; a proof obtained before is dead; the hold ends by itself",
        arguments: TestDatabase.all)
    func test_19_2_passwordChangeHoldsWithdrawals(database: TestDatabase) async throws {
        let serviceKey = String(repeating: "k", count: 40)
        try await withServer(database, adjust: { $0.serviceKeys = [serviceKey] }) { server in
            let tokens = try await established(server)
            let earlier = try await server.verificationToken(bearer: tokens.accessToken)
            let changedAt = server.clock.now.timeIntervalSince1970

            let changed = try await server.send(
                .POST, "/v1/password/change",
                json: ["current_password": "Correct-Horse-9", "new_password": "Another-Horse-7"],
                bearer: tokens.accessToken)
            let held = try await server.startVerification(bearer: tokens.accessToken)
            let other = try await server.startVerification("change_email", parameters: [:], bearer: tokens.accessToken)
            let redeemed = try await server.redeem(earlier, bearer: tokens.accessToken)
            let byService = try await server.redeem(earlier, bearer: serviceKey)
            let status = try await server.send(.GET, "/v1/me/security", bearer: tokens.accessToken)

            #expect(changed.status == 204, "\(changed.text)")
            #expect(held.status == 403 && held.errorCode == "SECURITY_HOLD", "\(held.text)")
            #expect(held.errorBody?.holdUntil?.timeIntervalSince1970 == changedAt + Self.day, "\(held.text)")
            #expect(held.errorBody?.reason == "password_changed" && held.errorBody?.action == "withdrawal")
            #expect(held.json["methods"] == nil, "no method is offered while held")
            #expect(other.status == 201, "an action that is not held goes on: \(other.text)")
            // The change's reset ended every unredeemed proof (issue 19 §1).
            #expect(redeemed.status == 403 && redeemed.errorCode == "VERIFICATION_INVALID", "\(redeemed.text)")
            #expect(byService.status == 403 && byService.errorCode == "VERIFICATION_INVALID", "\(byService.text)")
            let security = try status.decode(AccountSecurityStatus.self)
            #expect(security.holds.count == 1 && security.holds.first?.reason == "password_changed", "\(status.text)")
            #expect(security.holds.first?.actions == ["withdrawal"])
            #expect(security.antiPhishingCode == nil)

            server.clock.advance(by: Self.day + 1)
            let again = try await server.signIn(password: "Another-Horse-7").decode(TokenResponse.self)
            let after = try await server.startVerification(bearer: again.accessToken)
            #expect(after.status == 201, "the hold ran out: \(after.text)")
            let events = try await server.eventTypes(bearer: again.accessToken)
            #expect(events.contains("security_hold_started") && events.contains("security_hold_ended"), "\(events)")
            let cleared = try await server.send(.GET, "/v1/me/security", bearer: again.accessToken)
            #expect(try cleared.decode(AccountSecurityStatus.self).holds.isEmpty, "\(cleared.text)")
        }
    }

    @Test(
        "19 §2 a new account setting up starts no hold (first fund password, passkey, device key); an older account's device key does (a proof obtained before is refused with SECURITY_HOLD and stays unused), and a later change extends the hold to the later end",
        arguments: TestDatabase.all)
    func test_19_2_newAccountsStartNoneLaterChangesExtend(database: TestDatabase) async throws {
        let serviceKey = String(repeating: "k", count: 40)
        try await withServer(database, adjust: { $0.serviceKeys = [serviceKey] }) { server in
            let first = try await server.signUp()
            try await server.setFundPassword(bearer: first.accessToken)
            var authenticator = SoftwareAuthenticator()
            _ = try await server.registerPasskey(&authenticator, bearer: first.accessToken)
            _ = try await server.bindDevice(DeviceKey(), bearer: first.accessToken)
            #expect(try await server.startVerification(bearer: first.accessToken).status == 201, "no hold on day one")

            server.clock.advance(by: Self.day + 60)
            let tokens = try await server.signIn().decode(TokenResponse.self)
            let earlier = try await server.verificationToken(bearer: tokens.accessToken)
            let boundAt = server.clock.now.timeIntervalSince1970
            _ = try await server.bindDevice(DeviceKey(), name: "New phone", bearer: tokens.accessToken)
            let firstHold = try await server.startVerification(bearer: tokens.accessToken)
            let redeemed = try await server.redeem(earlier, bearer: tokens.accessToken)
            let byService = try await server.redeem(earlier, bearer: serviceKey)
            #expect(redeemed.status == 403 && redeemed.errorCode == "SECURITY_HOLD", "\(redeemed.text)")
            #expect(redeemed.errorBody?.reason == "device_key_added" && redeemed.errorBody?.action == "withdrawal")
            #expect(byService.status == 403 && byService.errorCode == "SECURITY_HOLD", "\(byService.text)")
            server.clock.advance(by: 2 * Self.hour)
            let fresh = try await server.signIn().decode(TokenResponse.self)
            let changed = try await server.send(
                .PUT, "/v1/fund-password",
                json: ["fund_password": "135790", "current_fund_password": VerificationSamples.fundPassword],
                bearer: fresh.accessToken)
            let extended = try await server.startVerification(bearer: fresh.accessToken)

            #expect(firstHold.errorBody?.reason == "device_key_added", "\(firstHold.text)")
            #expect(firstHold.errorBody?.holdUntil?.timeIntervalSince1970 == boundAt + Self.day)
            #expect(changed.status == 204, "\(changed.text)")
            #expect(extended.errorBody?.reason == "fund_password_changed", "\(extended.text)")
            #expect(extended.errorBody?.holdUntil?.timeIntervalSince1970 == boundAt + 2 * Self.hour + Self.day)
            let status = try await server.send(.GET, "/v1/me/security", bearer: fresh.accessToken)
            let holds = try status.decode(AccountSecurityStatus.self).holds
            #expect(holds.count == 1, "one running hold, extended: \(status.text)")
            #expect(holds.first?.startedAt.timeIntervalSince1970 == boundAt, "it started with the first change")
            let notices = await server.mails().filter {
                $0.subject == "A security setting of your Latch account changed"
            }
            // The first fund password is mailed too (issue 28 §2); the change is the second notice.
            #expect(notices.count == 2, "\(notices.map(\.body))")
            #expect(notices.first?.body.contains("A fund password was just set") == true)
            #expect(notices.last?.body.contains("Your fund password was just changed") == true)
        }
    }

    @Test(
        "19 §2 an operator lifts the hold (audited, security_hold_ended with actor operator); LATCH_SECURITY_HOLD_HOURS=0 turns holds off; LATCH_HOLD_ACTIONS chooses the held actions",
        arguments: TestDatabase.all)
    func test_19_2_liftAndConfiguration(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(database, adjust: { $0.holdActions = ["withdrawal", "view_private_key"] })
        {
            server in
            let tokens = try await established(server)
            _ = try await server.bindDevice(DeviceKey(), bearer: tokens.accessToken)
            let viewKey = try await server.startVerification(
                "view_private_key", parameters: [:], bearer: tokens.accessToken)
            #expect(viewKey.errorCode == "SECURITY_HOLD" && viewKey.errorBody?.action == "view_private_key")

            let lifted = try await server.send(
                .DELETE, "/v1/admin/users/\(tokens.user.id)/hold", bearer: AdminTests.adminKey)

            #expect(lifted.status == 204, "\(lifted.text)")
            #expect(try await server.startVerification(bearer: tokens.accessToken).status == 201)
            let detail = try await server.send(.GET, "/v1/admin/users/\(tokens.user.id)", bearer: AdminTests.adminKey)
            let shown = try detail.decode(AdminUserDetail.self)
            #expect(shown.holds.isEmpty, "\(detail.text)")
            #expect(
                shown.securityEvents.contains {
                    $0.type == "security_hold_ended" && $0.actor == "operator" && $0.detail == "device_key_added"
                }, "\(detail.text)")
            let audit = try await server.send(.GET, "/v1/admin/audit", bearer: AdminTests.adminKey)
            #expect(
                try audit.decode(AdminAuditPage.self).entries.contains {
                    $0.action == "lift_hold" && $0.result == "ok"
                },
                "\(audit.text)")
        }
        try await withServer(database, adjust: { $0.securityHoldHours = 0 }) { server in
            let tokens = try await established(server)
            _ = try await server.bindDevice(DeviceKey(), bearer: tokens.accessToken)
            #expect(try await server.startVerification(bearer: tokens.accessToken).status == 201, "holds are off")
        }
    }

    @Test("19 §2 LATCH_SECURITY_HOLD_HOURS and LATCH_HOLD_ACTIONS are read and checked")
    func test_19_2_configuration() throws {
        let key = Data(repeating: 1, count: 32).base64EncodedString()
        let base = ["LATCH_SECRET_KEY": key]
        let defaults = try LatchConfig.fromEnvironment(base)
        #expect(defaults.securityHoldHours == 24 && defaults.holdActions == ["withdrawal"])
        let set = try LatchConfig.fromEnvironment(
            base.merging(
                [
                    "LATCH_SECURITY_HOLD_HOURS": "0",
                    "LATCH_HOLD_ACTIONS": "withdrawal, internal_transfer,view_private_key"
                ]
            ) { $1 })
        #expect(
            set.securityHoldHours == 0 && set.holdActions == ["withdrawal", "internal_transfer", "view_private_key"])
        for (name, value) in [
            ("LATCH_SECURITY_HOLD_HOURS", "-1"), ("LATCH_SECURITY_HOLD_HOURS", "9000"),
            ("LATCH_SECURITY_HOLD_HOURS", "a day"), ("LATCH_HOLD_ACTIONS", "Withdrawal"), ("LATCH_HOLD_ACTIONS", ",,")
        ] {
            #expect(throws: ConfigurationError.self, "\(name)=\(value)") {
                try LatchConfig.fromEnvironment(base.merging([name: value]) { $1 })
            }
        }
    }
}
