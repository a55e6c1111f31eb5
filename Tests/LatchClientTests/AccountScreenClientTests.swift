// The account screens on a real `LatchClient` over a fake latchd: the SDK's services call the
// endpoints the screens need (issue 11 §4), with the bodies latchd expects.
#if canImport(Observation)
    import Foundation
    import LatchCore
    import Testing

    @testable import LatchClient

    @MainActor
    @Suite("Account screens on LatchClient (issue 11 §4)")
    struct AccountScreenClientTests {
        let server = AccountScreensServer()
        let vault = InMemoryVault()

        var client: LatchClient {
            LatchClient(
                serverURL: URL(string: "https://auth.example.com")!, vault: vault, transport: server,
                acceptLanguage: "zh-Hans")
        }

        @Test("C2 registration on LatchClient: the code is mailed, the code signs the new account in")
        func C2_registrationOnLatchClient() async throws {
            let client = self.client
            let model = RegistrationScreenModel(service: client, language: .zhHans)
            model.email = "New@Example.com"
            model.password = "Tiger7Lake"
            model.confirmation = "Tiger7Lake"
            model.termsAccepted = true

            await model.register()
            model.code = "123456"
            await model.verify()

            let sent = try #require(await server.inner.requests(to: "/v1/registrations").first?.body)
            let registration = try JSONDecoder().decode(RegistrationRequest.self, from: sent)
            #expect(
                registration
                    == RegistrationRequest(email: "new@example.com", password: "Tiger7Lake", termsAccepted: true))
            #expect(model.step == .finished(SessionFakeServer.alice))
            #expect(client.currentState == .signedIn(SessionFakeServer.alice))
        }

        @Test("C8 the devices screen on LatchClient lists GET /v1/sessions with this device marked")
        func C8_devicesOnLatchClient() async throws {
            let client = self.client
            try await client.signIn(with: await server.inner.issueTokens())
            let model = SignedInDevicesModel(service: client, language: .zhHans)

            await model.load()

            #expect(model.failure == nil)
            #expect(model.rows.map(\.title) == ["Phone (当前设备)"])
            #expect(!model.canSignOutOthers)
        }

        @Test(
            "C8 the security settings on LatchClient: status from the settings (not the export, issue 20 §4), the check turned off after a verification"
        )
        func C8_securitySettingsOnLatchClient() async throws {
            let client = self.client
            try await client.signIn(with: await server.inner.issueTokens())
            let verifier = FakeVerifier()
            let service = LatchSecuritySettingsService(
                client: client, authenticator: SimulatedAuthenticator(kind: .faceID),
                keys: SoftwareDeviceKeyStore(vault: vault),
                language: .zhHans)
            let model = SecuritySettingsModel(service: service, language: .zhHans, verify: verifier.run)

            await model.load()
            #expect(
                model.status
                    == SecurityStatus(
                        biometry: .faceID, biometricSignInEnabled: false, twoFactorEnabled: false,
                        fundPasswordSet: true, verifyUnusualSignIns: true))

            await model.setVerifyUnusualSignIns(false)

            #expect(verifier.opened.map(\.action) == [LatchClient.disableUnusualSignInCheckAction])
            #expect(
                await server.patches == [
                    SecuritySettingsUpdate(verifyUnusualSignIns: false),
                    SecuritySettingsUpdate(verifyUnusualSignIns: false, verificationToken: "vt-1")
                ])
            #expect(model.status?.verifyUnusualSignIns == false)
            #expect(try await client.securitySettings().verifyUnusualSignIns == false)
        }

        @Test("23_1 the new-device notice switch on LatchClient: off verifies disable_new_device_notice when asked")
        func test_23_1_newDeviceNoticeOnLatchClient() async throws {
            let client = self.client
            try await client.signIn(with: await server.inner.issueTokens())
            let verifier = FakeVerifier()
            let service = LatchSecuritySettingsService(
                client: client, authenticator: SimulatedAuthenticator(kind: .faceID),
                keys: SoftwareDeviceKeyStore(vault: vault), language: .en)
            let model = SecuritySettingsModel(service: service, language: .en, verify: verifier.run)

            await model.load()
            #expect(model.status?.notifyNewDevices == true, "on by default")
            #expect(model.newDeviceNoticeSwitch == true)

            await model.setNotifyNewDevices(false)

            #expect(verifier.opened.map(\.action) == [LatchClient.disableNewDeviceNoticeAction])
            #expect(verifier.opened.first?.localizedReason == "Verify it’s you to turn off new-device sign-in notices.")
            #expect(
                await server.patches == [
                    SecuritySettingsUpdate(notifyNewDevices: false),
                    SecuritySettingsUpdate(notifyNewDevices: false, verificationToken: "vt-1")
                ])
            #expect(model.status?.notifyNewDevices == false)
            #expect(model.status?.verifyUnusualSignIns == true, "the code check is another switch")
            #expect(try await client.securitySettings().notifyNewDevices == false)

            await model.setNotifyNewDevices(true)
            #expect(await server.patches.last == SecuritySettingsUpdate(notifyNewDevices: true))
            #expect(model.status?.notifyNewDevices == true)
            #expect(verifier.opened.count == 1, "turning it on needs no verification")
        }
    }
#endif
