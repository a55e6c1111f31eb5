// Shared set-up for the verification tests (Verification*, Accessibility*, Strings* files).
import Foundation
import LatchClient
import LatchCore

enum VerificationFixtures {
    /// The sensitive action every narrative protects.
    static let withdrawal = VerificationContext(
        action: "withdrawal", parameters: ["amount": "100.00", "currency": "USDT", "address": "TXabc"])

    /// This device's bound key.
    static let credentialID = "5c0ffee0-0000-4000-8000-000000000001"

    /// The server's answer to `POST /v1/verifications`, offering what the user has.
    static func started(
        id: String = "v-1", biometric: Bool = true, totp: Bool = true, fundPassword: Bool = true,
        credentialIDs: [String] = [credentialID], expiresIn: Int = 300
    ) -> VerificationStarted {
        var methods: [VerificationMethodOffer] = []
        if biometric {
            methods.append(
                VerificationMethodOffer(
                    type: .biometric, credentialIds: credentialIDs, challengeId: "ch-\(id)",
                    challenge: "challenge-\(id)"))
        }
        if totp { methods.append(VerificationMethodOffer(type: .totp)) }
        if fundPassword { methods.append(VerificationMethodOffer(type: .fundPassword)) }
        return VerificationStarted(
            verificationId: id, methods: methods, preferred: methods.first?.type ?? .fundPassword, expiresIn: expiresIn)
    }

    /// A device with biometrics enabled (bound key) in the given sensor state.
    static func device(
        _ biometry: VerificationDeviceState.Biometry = .available(.faceID, permission: .granted), enabled: Bool = true
    ) -> VerificationDeviceState {
        VerificationDeviceState(biometricCredentialID: enabled ? credentialID : nil, biometry: biometry)
    }

    static func flow(
        _ device: VerificationDeviceState = device(), language: LatchLanguage = .zhHans,
        context: VerificationContext = withdrawal
    ) -> VerificationFlow {
        VerificationFlow(
            context: context, device: device, language: language, timeZone: TimeZone(identifier: "Asia/Shanghai")!)
    }

    /// A flow whose biometric prompt is up (A1), with `sensor` ready and permission granted.
    static func evaluating(
        _ sensor: VerificationSensor = .faceID, language: LatchLanguage = .zhHans, totp: Bool = true,
        fundPassword: Bool = true
    ) -> VerificationFlow {
        var flow = flow(device(.available(sensor, permission: .granted)), language: language)
        _ = flow.start()
        _ = flow.serverStarted(started(totp: totp, fundPassword: fundPassword))
        return flow
    }

    static let passed = VerificationPassed(verificationToken: "vt-123", expiresIn: 300)

    /// The server's passkey offer for verification `started` (issue 13).
    static func passkeyOffer(for started: VerificationStarted) -> VerificationMethodOffer {
        VerificationMethodOffer(
            type: .passkey, challengeId: "pc-\(started.verificationId)",
            challenge: "passkey-challenge-\(started.verificationId)",
            options: PublicKeyCredentialRequestOptionsJSON(
                challenge: "Ym91bmQtdG8tdGhlLWFjdGlvbg", timeout: 300_000, rpId: "example.com",
                allowCredentials: [PublicKeyCredentialDescriptorJSON(id: "Y3JlZC0x")], userVerification: "required"))
    }

    /// `started` with a passkey offer after biometrics (the server's order).
    static func withPasskey(_ started: VerificationStarted) -> VerificationStarted {
        var started = started
        let index = started.methods.firstIndex { $0.type == .biometric }.map { $0 + 1 } ?? 0
        started.methods.insert(passkeyOffer(for: started), at: index)
        return started
    }

    /// An assertion as the device's passkey would hand it over.
    static let passkeyAssertion = AuthenticationResponseJSON(
        id: "Y3JlZC0x", rawId: "Y3JlZC0x",
        response: .init(clientDataJSON: "e30", authenticatorData: "AAAA", signature: "MEUC", userHandle: nil))
}

extension VerificationFixtures {
    /// Every kind of page the flow can show, reached by short narratives, for `sensor` in `language`.
    static func everyScreen(_ sensor: VerificationSensor = .faceID, language: LatchLanguage = .zhHans)
        -> [(name: String, screen: VerificationScreen)]
    {
        var screens: [(String, VerificationScreen)] = []
        func keep(_ name: String, _ action: VerificationFlow.Action) {
            if let screen = action.screen { screens.append((name, screen)) }
        }

        var flow = flow(device(.available(sensor, permission: .granted)), language: language)
        keep("preparing", flow.start())
        keep("biometric", flow.serverStarted(started()))
        keep("failure 1", flow.biometricFinished(.failed))
        _ = flow.userTappedRetry()
        keep("failure 2", flow.biometricFinished(.failed))
        _ = flow.userTappedRetry()
        keep("interrupted", flow.biometricFinished(.systemCancel))
        _ = flow.userTappedRetry()
        keep("checking", flow.biometricFinished(.success))
        keep("network after biometrics", flow.serverAttemptFailed(.network))
        _ = flow.userTappedRetry()
        keep("failure 3", flow.biometricFinished(.failed))
        keep("fund password sent", flow.userSubmittedFundPassword("135790"))
        keep("wrong fund password", flow.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 2)))
        keep("malformed fund password", flow.userSubmittedFundPassword("1"))
        keep("2FA", flow.userTappedOtherMethod())
        keep("malformed code", flow.userSubmittedCode("x"))
        keep("code sent", flow.userSubmittedCode("123456"))
        keep("locked", flow.serverAttemptFailed(.locked(until: Date(timeIntervalSince1970: 1_765_173_900))))
        keep("expired", flow.timedOut(verificationID: "v-1"))

        var explaining = self.flow(device(.available(.faceID, permission: .notDetermined)), language: language)
        _ = explaining.start()
        keep("explanation", explaining.serverStarted(started()))
        _ = explaining.userTappedContinue()
        keep("denied", explaining.permissionPromptAnswered(granted: false))

        var degraded = self.flow(device(.lockedOut(sensor)), language: language)
        _ = degraded.start()
        keep("locked out", degraded.serverStarted(started()))

        var failedStart = self.flow(language: language)
        _ = failedStart.start()
        keep("start failed", failedStart.serverStartFailed(.other(code: "INTERNAL_ERROR")))

        var nothing = self.flow(device(enabled: false), language: language)
        _ = nothing.start()
        keep("no method", nothing.serverStarted(started(biometric: false, totp: false, fundPassword: false)))

        // Issue 13: the passkey pages.
        var passkey = self.flow(device(enabled: false), language: language)
        _ = passkey.start()
        keep("passkey sheet", passkey.serverStarted(withPasskey(started()), devicePasskey: true))
        keep("passkey cancelled", passkey.passkeyAssertionFinished(.cancelled))
        _ = passkey.userTappedUsePasskey()
        keep("passkey failed", passkey.passkeyAssertionFinished(.failed))
        _ = passkey.userTappedUsePasskey()
        keep("passkey checking", passkey.passkeyAssertionFinished(.asserted(passkeyAssertion)))
        keep("passkey rejected", passkey.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 2)))
        keep("code page with passkey", passkey.userTappedOtherMethod())

        // Issue 30 §3: the page between two factors and the emailed code's pages.
        var twoFactors = self.flow(device(.available(sensor, permission: .granted)), language: language)
        _ = twoFactors.start()
        var policy = started()
        policy.requiredFactors = 2
        _ = twoFactors.serverStarted(policy)
        _ = twoFactors.biometricFinished(.success)
        keep(
            "factor passed",
            twoFactors.serverAttemptNeedsAnotherFactor(
                VerificationProgress(
                    remainingFactors: 1, passed: [.biometric], methods: [VerificationMethodOffer(type: .emailCode)])))
        keep("email code", twoFactors.userTappedContinue())
        keep("email code sending", twoFactors.userTappedSendCode())
        keep("email code sent", twoFactors.emailCodeSent())
        keep("malformed email code", twoFactors.userSubmittedCode("1"))
        keep("email code checking", twoFactors.userSubmittedCode("123456"))
        keep("wrong email code", twoFactors.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 2)))

        return screens
    }
}
