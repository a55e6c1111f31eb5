import Foundation
import LatchClient
import LatchCore
import LatchServer
import Testing

/// Issue 4's journeys end to end: a real latchd on loopback, LatchClient over real HTTP (URLSession),
/// the SDK's own flows (`enableBiometrics`, `BiometricSignInDriver`, `verify`) with a simulated Face ID
/// sensor, a software device key, and a scripted verification page.
@Suite("Journeys (end to end)", .timeLimit(.minutes(10)))
struct JourneyTests {
    static let email = "alice@example.com"
    static let password = "Correct-Horse-9"
    static let fundPassword = "908172"
    static let withdrawal = VerificationContext(
        action: "withdrawal", parameters: ["amount": "100.00", "currency": "USDT", "address": "TXabc"],
        localizedReason: "确认提现 100 USDT")

    /// One device: a client with its vault, device key and sensor.
    struct Device {
        let client: LatchClient
        let keys: SoftwareDeviceKeyStore
        let sensor: SimulatedAuthenticator

        init(on server: LiveServer) {
            let vault = InMemoryVault()
            client = server.client(vault: vault)
            keys = SoftwareDeviceKeyStore(vault: vault)
            sensor = SimulatedAuthenticator(kind: .faceID)
        }

        /// C2: signs up with the code from the development outbox.
        func signUp(on server: LiveServer) async throws -> UserInfo {
            let registration = try await client.signUp(
                email: email, password: password, nickname: "Alice", acceptTerms: true)
            return try await client.verifyRegistration(id: registration, code: try await server.latestCode(to: email))
        }

        /// B5: enables Face ID through the SDK (evaluate, create the key, register it).
        func enableFaceID() async throws -> BiometricBinding {
            await sensor.enqueue(.match)
            let result = try await client.enableBiometrics(
                authenticator: sensor, keys: keys, reason: "开启面容ID登录", deviceName: "Alice's iPhone")
            guard case .enabled(let binding) = result else { throw JourneyError.notEnabled(result) }
            return binding
        }

        /// A1–A10: the verification page for the withdrawal, in Chinese.
        func verifyWithdrawal(presenter: ScriptedPresenter) async -> VerificationResult {
            await client.verify(
                Self.withdrawal, authenticator: sensor, keys: keys, presenter: presenter, language: .zhHans)
        }

        static var withdrawal: VerificationContext { JourneyTests.withdrawal }

        /// The security events of the signed-in user, newest first (the first page).
        func events() async throws -> [String] {
            try await client.securityEvents().events.map(\.type)
        }
    }

    enum JourneyError: Error { case notEnabled(BiometricEnableResult) }

    @Test("C2 B5 C9 B6 C12 sign up, enable Face ID, sign out, sign in with Face ID")
    func B6_signUpEnableFaceIDSignOutBiometricSignIn() async throws {
        try await withLiveServer { server in
            let device = Device(on: server)
            let user = try await device.signUp(on: server)
            #expect(user.email == Self.email && user.emailVerified)
            #expect(device.client.currentState == .signedIn(user))
            let binding = try await device.enableFaceID()
            #expect(binding.biometry == .faceID)
            #expect(try await device.client.deviceCredentials().map(\.id) == [binding.credentialID])

            await device.client.signOut()
            #expect(device.client.currentState == .signedOut)

            // The sign-in screen's Face ID option: one match signs in with the device key.
            await device.sensor.enqueue(.match)
            let signIn = await device.client.biometricSignIn(
                authenticator: device.sensor, keys: device.keys, language: .zhHans)
            var update = await signIn.start(hasStoredSession: false)
            if case .showSignIn(let screen) = update {
                #expect(screen.biometricOption == .faceID)
                update = await signIn.biometricSignInTapped()
            }
            guard case .finished(let outcome) = update else {
                Issue.record("biometric sign-in did not finish: \(update)")
                return
            }
            let signedIn = try await device.client.finishBiometricSignIn(outcome)

            #expect(signedIn.id == user.id)
            #expect(try await device.client.me().email == Self.email)
            #expect(try await device.client.sessions().count == 1, "the signed-out session stays revoked")
        }
    }

    @Test("A1 A2 D3 a withdrawal verified by Face ID: the proof comes back with the action and is redeemed once")
    func A2_withdrawalVerifiedByFaceID() async throws {
        try await withLiveServer { server in
            let device = Device(on: server)
            _ = try await device.signUp(on: server)
            _ = try await device.enableFaceID()
            await device.sensor.enqueue(.match)
            let page = ScriptedPresenter { _ in nil }

            let result = await device.verifyWithdrawal(presenter: page)

            guard case .succeeded(let proof) = result else {
                Issue.record("not verified: \(result)")
                return
            }
            #expect(proof.method == .biometric && proof.context == Self.withdrawal)
            #expect(await page.screens.map(\.kind) == [.preparing, .biometric, .biometricChecking])
            #expect(await page.screens[1].title == "Face ID")
            #expect(await page.dismissals == [VerificationAnnouncement("验证成功")])
            let prompt = try #require(await device.sensor.prompts.last)
            #expect(prompt.reason == "确认提现 100 USDT")

            let redeemed = try await device.client.redeemVerification(
                proof.token, action: proof.context.action, parameters: proof.context.parameters)
            #expect(redeemed.method == .biometric && redeemed.action == "withdrawal")
            await #expect(throws: LatchClientError.self) {
                _ = try await device.client.redeemVerification(
                    proof.token, action: proof.context.action, parameters: proof.context.parameters)
            }
        }
    }

    @Test("A3 A5 three Face ID failures: 第1/3次, 剩余1次, then the fund password page by itself, which verifies")
    func A3_threeFaceIDFailuresThenFundPassword() async throws {
        try await withLiveServer { server in
            let device = Device(on: server)
            _ = try await device.signUp(on: server)
            _ = try await device.enableFaceID()
            try await device.client.setFundPassword(Self.fundPassword)
            // Face ID never reports −1: each attempt is a failed scan, then the prompt's Cancel.
            await device.sensor.enqueue(.noMatch, .cancel, .noMatch, .cancel, .noMatch, .cancel)
            let page = ScriptedPresenter { screen in
                switch screen.kind {
                case .biometricRetry: .tapped(.retry)
                case .fundPassword: .submittedFundPassword(VerificationSecret(Self.fundPassword))
                default: nil
                }
            }

            let result = await device.verifyWithdrawal(presenter: page)

            #expect(result.proofMethod == .fundPassword)
            let settled = await page.settledScreens
            let retries = settled.filter { $0.kind == .biometricRetry }
            #expect(retries.map(\.message) == ["第1/3次尝试失败", "第2/3次尝试失败"])
            #expect(retries.map(\.detail) == ["剩余2次尝试机会", "剩余1次尝试机会，之后将使用密码验证"])
            #expect(settled.last?.kind == .fundPassword)
            #expect(settled.last?.message == "Face ID验证失败次数过多，请使用密码验证")
            #expect(await device.sensor.prompts.count == 1 + 3, "one prompt to enable, three to verify")
            guard case .succeeded(let proof) = result else { return }
            #expect(
                try await device.client.redeemVerification(
                    proof.token, action: "withdrawal", parameters: proof.context.parameters
                ).method
                    == .fundPassword)
        }
    }

    @Test("A5 D1 使用其他方式验证 goes to 2FA when bound, and a TOTP code verifies")
    func A5_otherMethodGoesToTOTP() async throws {
        try await withLiveServer { server in
            let device = Device(on: server)
            _ = try await device.signUp(on: server)
            _ = try await device.enableFaceID()
            try await device.client.setFundPassword(Self.fundPassword)
            let enrollment = try await device.client.enrollTOTP()
            let totp = TOTP(secret: try #require(Base32.decode(enrollment.secret)))
            #expect(try await device.client.activateTOTP(code: totp.code(at: server.now)).count == 10)
            server.advance(by: 30)
            let code = totp.code(at: server.now)
            await device.sensor.enqueue(.noMatch)
            let page = ScriptedPresenter { screen in
                switch screen.kind {
                case .biometricRetry: .tapped(.otherMethod)
                case .oneTimeCode: .submittedCode(VerificationSecret(code))
                default: nil
                }
            }

            let result = await device.verifyWithdrawal(presenter: page)

            #expect(result.proofMethod == .totp)
            #expect(await page.settledScreens.map(\.kind) == [.biometric, .biometricRetry, .oneTimeCode])
            guard case .succeeded(let proof) = result else { return }
            #expect(
                try await device.client.redeemVerification(
                    proof.token, action: "withdrawal", parameters: proof.context.parameters
                ).method
                    == .totp)
        }
    }

    @Test("A4 取消 on the Face ID prompt: cancelled, no attempt reaches the server, nothing to redeem")
    func A4_cancelExecutesNothing() async throws {
        try await withLiveServer { server in
            let device = Device(on: server)
            _ = try await device.signUp(on: server)
            _ = try await device.enableFaceID()
            await device.sensor.enqueue(.cancel)
            let page = ScriptedPresenter { _ in nil }

            let result = await device.verifyWithdrawal(presenter: page)

            #expect(result == .cancelled)
            #expect(await page.dismissals == [VerificationAnnouncement("已取消验证")])
            let events = try await device.events()
            #expect(!events.contains("verification_passed") && !events.contains("verification_redeemed"))
        }
    }

    @Test("C1 a phone account adds an email and password through the SDK, then signs in with them")
    func C1_phoneAccountAddsEmail() async throws {
        try await withLiveServer { server in
            let vault = InMemoryVault()
            let client = server.client(vault: vault)
            _ = try await client.requestSMSCode(phone: "+8613800138000")
            let code = try #require(await server.app.latch.outbox?.messages(to: "+8613800138000").last?.code)
            let phoneUser = try await client.signIn(phone: "+8613800138000", code: code)
            #expect(phoneUser.email == nil)

            #expect(try await client.linkEmail("carol@example.com", password: Self.password) == 600)
            let linked = try await client.confirmEmailLink(
                email: "carol@example.com", code: try await server.latestCode(to: "carol@example.com"))
            await client.signOut()
            let again = try await client.signIn(email: "carol@example.com", password: Self.password)

            #expect(linked.email == "carol@example.com" && linked.emailVerified)
            #expect(Set(linked.identities?.map(\.provider) ?? []) == ["email", "phone"])
            #expect(again.id == phoneUser.id, "the same account, now also by email")
        }
    }

    @Test("C6 an access token refused with 401 is refreshed and the call replayed once")
    func C6_refreshOn401() async throws {
        try await withLiveServer { server in
            // The client's clock stays behind, so it believes its access token is fresh. Only the server's
            // clock moves, not the world's (`Date` stays real), so a DPoP-bound client (the default) would have
            // its proofs refused as stale: this journey is the bearer session's (`dpopKeys: .none`).
            let clientClock = server.now
            let client = LatchClient(
                serverURL: server.serverURL, vault: InMemoryVault(), clock: { clientClock }, dpopKeys: .none)
            let registration = try await client.signUp(email: Self.email, password: Self.password, acceptTerms: true)
            let user = try await client.verifyRegistration(
                id: registration, code: try await server.latestCode(to: Self.email))

            server.advance(by: 7201) // the server now sees the access token as expired
            let me = try await client.me()

            #expect(me.id == user.id)
            #expect(client.currentState == .signedIn(me))
        }
    }
}

extension VerificationResult {
    /// The method that passed, when the flow succeeded.
    var proofMethod: VerificationMethodKind? {
        if case .succeeded(let proof) = self { return proof.method }
        return nil
    }
}
