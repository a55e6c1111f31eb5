import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 23 §1 (seed 004 §6.2 "☑ 新设备登录时通知") in the SDK on every platform: the switch travels as
/// `notify_new_devices` in `/v1/me/security-settings`, the screen's service reads and moves it, and a
/// server without the field reads as on. (The screen model's own tests need Observation.)
@Suite("New-device notice switch in the SDK (issue 23 §1)")
struct NewDeviceNoticeClientTests {
    let server = NewDeviceNoticeServer()
    let vault = InMemoryVault()

    func signedInService() async throws -> LatchSecuritySettingsService {
        let client = LatchClient(
            serverURL: URL(string: "https://auth.example.com")!, vault: vault, transport: server,
            acceptLanguage: "zh-Hans")
        try await client.signIn(with: await server.inner.issueTokens())
        return LatchSecuritySettingsService(
            client: client, authenticator: SimulatedAuthenticator(kind: .faceID),
            keys: SoftwareDeviceKeyStore(vault: vault), language: .zhHans)
    }

    @Test("23_1 the service reads the switch (on by default) and turns it off with a disable_new_device_notice token")
    func test_23_1_serviceMovesTheSwitch() async throws {
        let service = try await signedInService()

        #expect(try await service.securityStatus().notifyNewDevices == true, "on by default")
        await #expect(throws: LatchClientError.self, "an old session must verify first") {
            try await service.setNotifyNewDevices(false, verificationToken: nil)
        }
        let off = try await service.setNotifyNewDevices(false, verificationToken: "vt-1")
        let shownOff = try await service.securityStatus()
        let on = try await service.setNotifyNewDevices(true, verificationToken: nil)

        #expect(off == false && shownOff.notifyNewDevices == false && shownOff.verifyUnusualSignIns == true)
        #expect(on == true)
        let bodies = await server.patchBodies
        let objects = try bodies.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(
            objects.map { Set($0.keys) }
                == [["notify_new_devices"], ["notify_new_devices", "verification_token"], ["notify_new_devices"]],
            "only the moved switch is sent: \(bodies)")
        #expect(objects.map { $0["notify_new_devices"] as? Bool } == [false, false, true])
        #expect(LatchClient.disableNewDeviceNoticeAction == "disable_new_device_notice")
    }

    @Test("23_1 a server that does not send notify_new_devices reads as on; the texts are the seed's")
    func test_23_1_wireAndTexts() throws {
        let older = try JSONDecoder().decode(
            SecuritySettings.self, from: Data(#"{"verify_unusual_sign_ins":false}"#.utf8))
        let off = try JSONDecoder().decode(
            SecuritySettings.self, from: Data(#"{"verify_unusual_sign_ins":true,"notify_new_devices":false}"#.utf8))

        #expect(older.notifyNewDevices == true && older.verifyUnusualSignIns == false)
        #expect(off.notifyNewDevices == false)
        #expect(SecuritySettingsStrings(.zhHans).notifyNewDevices == "新设备登录时通知")
        #expect(SecuritySettingsStrings(.en).notifyNewDevices == "Notify me of sign-ins from new devices")
        #expect(SecuritySettingsStrings(.zhHans).disableNewDeviceNoticeReason == "验证身份以关闭新设备登录通知")
    }
}
