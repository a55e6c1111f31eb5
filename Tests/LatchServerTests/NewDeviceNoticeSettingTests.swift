import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// Issue 23 §1 (seed 004 §6.2 "☑ 新设备登录时通知"): the new-device notice is a per-user setting, on by
/// default; turning it off is a protected security setting that is itself mailed; off, a sign-in from a
/// new device mails no notice, while the code check ("verify unusual sign-ins") stays as it is.
@Suite("New-device notice setting (issue 23 §1)")
struct NewDeviceNoticeSettingTests {
    static let phone = NewDeviceTests.phone
    static let laptop = NewDeviceTests.laptop
    static let tablet = ["id": "tablet-3", "name": "Alice's iPad", "model": "iPad14,1", "platform": "iPadOS"]
    static let settingChanged = "A security setting of your Latch account changed"

    /// `notify_new_devices` of a security-settings answer; nil when it is missing or not a boolean.
    /// Not LatchCore's `SecuritySettings`, which reads a missing one as on (an older server always mailed).
    private static func notice(_ answer: TestResponse) -> Bool? {
        (try? answer.decode(NoticeSettingAnswer.self))?.notify_new_devices
    }

    @Test(
        "23_1 the new-device notice is on by default; off, a new device is not mailed about while the code check stays; turning it off is mailed",
        arguments: TestDatabase.all)
    func test_23_1_noticeOffStopsTheNoticeOnly(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp(device: Self.phone)
            _ = try await server.signIn(device: Self.phone)
            let initial = try await server.send(.GET, "/v1/me/security-settings", bearer: tokens.accessToken)
            let mailsBefore = await server.mails().count

            let turnedOff = try await server.send(
                .PATCH, "/v1/me/security-settings", json: ["notify_new_devices": false], bearer: tokens.accessToken)
            let shown = try await server.send(.GET, "/v1/me/security-settings", bearer: tokens.accessToken)

            #expect(Self.notice(initial) == true, "on by default: \(initial.text)")
            #expect(turnedOff.status == 200 && Self.notice(turnedOff) == false, "\(turnedOff.text)")
            #expect(
                (try? turnedOff.decode(SecuritySettings.self))?.verifyUnusualSignIns == true,
                "the code check is untouched")
            #expect(Self.notice(shown) == false, "\(shown.text)")
            let offMails = await server.mails().dropFirst(mailsBefore)
            #expect(offMails.count == 1, "\(offMails.map(\.subject))")
            let offNotice = try #require(offMails.first)
            #expect(offNotice.subject == Self.settingChanged)
            #expect(offNotice.body.contains("no longer mail you when a new device signs in"), "\(offNotice.body)")
            #expect(offNotice.body.contains("/account#freeze="), "a security notice carries a freeze link")

            // The code check stays: a new device still needs the mailed code, but no notice follows.
            let challenged = try await server.signIn(device: Self.laptop)
            #expect(challenged.status == 403 && challenged.errorCode == "VERIFICATION_REQUIRED", "\(challenged.text)")
            let challengeID = try #require(challenged.errorBody?.challengeId)
            let code = try await server.latestCode(to: "alice@example.com")
            let passed = try await NewDeviceTests.loginChallenge(server, challengeID: challengeID, code: code)
            #expect(passed.status == 200, "\(passed.text)")
            // With the check off too, a new device signs in directly, and still no notice.
            let checkOff = try await server.send(
                .PATCH, "/v1/me/security-settings", json: ["verify_unusual_sign_ins": false], bearer: tokens.accessToken
            )
            #expect(checkOff.status == 200 && Self.notice(checkOff) == false, "\(checkOff.text)")
            let fromTablet = try await server.signIn(device: Self.tablet)
            #expect(fromTablet.status == 200, "\(fromTablet.text)")

            let allMails = await server.mails()
            #expect(allMails.filter(NewDeviceTests.isNewDeviceNotice).isEmpty, "\(allMails.map(\.subject))")
            let events = try await server.eventTypes(bearer: tokens.accessToken)
            #expect(
                events.filter { $0 == "new_device_signed_in" }.count == 2, "the events are still recorded: \(events)")

            // On again: the next new device is mailed about, and turning it on mails nothing of its own.
            let mailsBeforeOn = await server.mails().count
            let turnedOn = try await server.send(
                .PATCH, "/v1/me/security-settings", json: ["notify_new_devices": true], bearer: tokens.accessToken)
            #expect(turnedOn.status == 200 && Self.notice(turnedOn) == true, "\(turnedOn.text)")
            #expect(await server.mails().count == mailsBeforeOn, "turning the notice on is not mailed")
            let fromNewPhone = try await server.signIn(device: ["id": "phone-4", "name": "Alice's new iPhone"])
            #expect(fromNewPhone.status == 200, "\(fromNewPhone.text)")
            let notices = await server.mails().filter(NewDeviceTests.isNewDeviceNotice)
            #expect(notices.count == 1 && notices.first?.body.contains("Alice's new iPhone") == true)
        }
    }

    @Test(
        "23_1 turning the new-device notice off 10 minutes after sign-in needs a verification of disable_new_device_notice",
        arguments: TestDatabase.all)
    func test_23_1_turningTheNoticeOffIsProtected(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp(device: Self.phone)
            try await server.setFundPassword(bearer: tokens.accessToken)
            server.clock.advance(by: 601)
            let mailsBefore = await server.mails().count

            let refused = try await server.send(
                .PATCH, "/v1/me/security-settings", json: ["notify_new_devices": false], bearer: tokens.accessToken)
            let stillOn = try await server.send(.GET, "/v1/me/security-settings", bearer: tokens.accessToken)
            let otherAction = try await server.verificationToken(
                "disable_unusual_sign_in_check", parameters: [:], bearer: tokens.accessToken)
            let withOtherAction = try await server.send(
                .PATCH, "/v1/me/security-settings",
                json: ["notify_new_devices": false, "verification_token": otherAction] as [String: Any],
                bearer: tokens.accessToken)
            #expect(await server.mails().count == mailsBefore, "nothing changed, nothing mailed")
            let token = try await server.verificationToken(
                "disable_new_device_notice", parameters: [:], bearer: tokens.accessToken)
            let turnedOff = try await server.send(
                .PATCH, "/v1/me/security-settings",
                json: ["notify_new_devices": false, "verification_token": token] as [String: Any],
                bearer: tokens.accessToken)

            #expect(refused.status == 403 && refused.errorCode == "VERIFICATION_REQUIRED", "\(refused.text)")
            #expect(Self.notice(stillOn) == true, "\(stillOn.text)")
            #expect(
                withOtherAction.status == 403 && withOtherAction.errorCode == "VERIFICATION_INVALID",
                "a token for the code check does not turn the notice off: \(withOtherAction.text)")
            #expect(turnedOff.status == 200 && Self.notice(turnedOff) == false, "\(turnedOff.text)")
            let newMails = await server.mails().dropFirst(mailsBefore)
            #expect(newMails.map(\.subject) == [Self.settingChanged], "one notice: \(newMails.map(\.subject))")
            let notABoolean = try await server.send(
                .PATCH, "/v1/me/security-settings", json: ["notify_new_devices": "no"], bearer: tokens.accessToken)
            #expect(notABoolean.status == 400, "a non-boolean is refused: \(notABoolean.text)")
        }
    }
}

/// A security-settings answer (`GET` and `PATCH /v1/me/security-settings`), as far as these tests read
/// the notice setting.
private struct NoticeSettingAnswer: Decodable {
    var notify_new_devices: Bool?
}
