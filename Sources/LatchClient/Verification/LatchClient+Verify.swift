import Foundation
import LatchCore

extension LatchClient {
    /// Runs the verification page for a sensitive action (A1–A10) and returns how it ended: Face ID or
    /// Touch ID first when enabled on this device, three tries, then the fund password or 2FA, with
    /// cancel, permission, lock and timeout handling — every decision made by `VerificationFlow`.
    ///
    ///     let context = VerificationContext(action: "withdrawal", parameters: ["amount": "100.00", "currency": "USDT"])
    ///     switch await client.verify(context, authenticator: LocalAuthenticationAuthenticator(),
    ///                                keys: keys, presenter: sheetModel, language: .zhHans) {
    ///     case .succeeded(let proof): try await backend.withdraw(proof.context.parameters, verificationToken: proof.token)
    ///     case .cancelled, .failed: break   // A4: the action is not executed
    ///     }
    ///
    /// Cancelling the calling task counts as the user's "取消" / "Cancel". With `passkeys`, the page offers passkey
    /// (after biometrics) when the server does and this device has a passkey that can answer. When a security
    /// hold pauses the action (403 SECURITY_HOLD, issue 19 §2), the page shows the hold (what, why, until when,
    /// counting down by the client's clock) instead of any method; its "关闭" / "Close" returns `.cancelled`.
    /// Under the server's verification policy (issue 30) the page asks for a second factor of another kind
    /// after the first ("已通过面容验证，还需完成一项验证" / "Face ID passed. One more verification is needed."), offers
    /// the emailed code when the server does ("发送验证码" / "Send Code", then the code), and shows a policy limit
    /// (POLICY_LIMIT) or a locked new value (NEW_VALUE_LOCKED, counting down) as pages of their own, closed with
    /// `.cancelled`.
    public func verify(
        _ context: VerificationContext, authenticator: any BiometricAuthenticator, keys: any DeviceKeyStore,
        presenter: some VerificationPresenter, language: LatchLanguage, timeZone: TimeZone = .current,
        passkeys: (any PasskeyAuthenticator)? = nil
    ) async -> VerificationResult {
        let device = await verificationDeviceState(authenticator: authenticator)
        let sensor = device.biometry.sensor ?? .faceID
        let relay = VerificationInputRelay()
        let environment = LatchVerificationEnvironment(
            client: self, authenticator: authenticator, keys: keys, presenter: presenter, sensor: sensor,
            passkeys: passkeys, responder: relay)
        let driver = VerificationDriver(
            flow: VerificationFlow(
                context: context, device: device, language: language, timeZone: timeZone, clock: clock),
            environment: environment)
        relay.connect { driver.send($0) }
        return await driver.run()
    }

    /// What this device offers a verification: its biometric credential when biometric login is
    /// enabled here and the enrolled faces or fingers did not change since (B4), and the sensor's state.
    public func verificationDeviceState(authenticator: any BiometricAuthenticator) async -> VerificationDeviceState {
        let store = BiometricEnrollmentStore(vault: vault)
        let binding = await store.binding()
        let availability = await authenticator.availability()
        let check = await store.check(reading: await authenticator.domainStateReading())
        let unchanged: Bool =
            switch check {
            case .usable, .unconfirmed: true // unconfirmed: the device key decides when it signs
            case .notEnabled, .changed: false
            }
        var device = VerificationDeviceState(
            biometricCredentialID: unchanged ? binding?.credentialID : nil, availability: availability,
            boundSensor: binding?.biometry,
            faceIDPermissionGranted: await FaceIDPermissionRecord(vault: vault).isGranted)
        // Seed 001: a changed enrollment takes biometrics off the page, which says why (issue 23 §1).
        device.biometricEnrollmentChanged = binding != nil && check == .changed
        return device
    }
}
