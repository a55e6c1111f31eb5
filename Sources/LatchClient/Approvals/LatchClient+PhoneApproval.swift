import Foundation
import LatchCore

extension LatchClient {
    /// Runs the seed's verification page (Face ID by the device key, or the policy's other kinds) over a
    /// verification started elsewhere and waiting for this phone (issue 43 §2), every attempt carrying
    /// `number`, the one the user picked. The page and its decisions are `verify(…)`'s, unchanged; only
    /// the server side differs: nothing is opened (the offers are `details.methods`), and the pass gives no
    /// token here (the initiator collects it).
    ///
    ///     let details = try await client.phoneVerification(id: push.verificationID)
    ///     switch await client.approveOnPhone(details, number: "42", authenticator: auth, keys: keys,
    ///                                        presenter: sheet, language: .zhHans) {
    ///     case .passed: showApproved()
    ///     case .wrongNumber: showWrongNumber()       // ended for good; the owner is told
    ///     case .cancelled, .failed: break
    ///     }
    public func approveOnPhone(
        _ details: PhoneVerificationDetails, number: String, authenticator: any BiometricAuthenticator,
        keys: any DeviceKeyStore, presenter: some VerificationPresenter, language: LatchLanguage,
        timeZone: TimeZone = .current, passkeys: (any PasskeyAuthenticator)? = nil
    ) async -> ApprovalVerificationOutcome {
        let device = await verificationDeviceState(authenticator: authenticator)
        let relay = VerificationInputRelay()
        let inner = LatchVerificationEnvironment(
            client: self, authenticator: authenticator, keys: keys, presenter: presenter,
            sensor: device.biometry.sensor ?? .faceID, passkeys: passkeys, responder: relay)
        let record = PhoneApprovalRecord()
        let environment = PhoneApprovalEnvironment(inner: inner, details: details, number: number, record: record)
        let context = VerificationContext(action: details.action, parameters: details.parameters)
        let driver = VerificationDriver(
            flow: VerificationFlow(
                context: context, device: device, language: language, timeZone: timeZone, clock: clock),
            environment: environment)
        relay.connect { driver.send($0) }
        let result = await driver.run()
        switch (record.outcome, result) {
        case (.wrongNumber?, _): return .wrongNumber
        case (.approved?, .succeeded): return .passed(token: nil)
        case (_, .succeeded(let proof)): return proof.token.isEmpty ? .passed(token: nil) : .passed(token: proof.token)
        case (_, .cancelled): return .cancelled
        case (_, .failed): return .failed
        }
    }

    /// Runs the verification page for approving sign-in approval `approvalID` (`approve_sign_in`), as
    /// `verify(…)`: the outcome the approval screen needs.
    public func verifySignInApproval(
        _ context: VerificationContext, authenticator: any BiometricAuthenticator, keys: any DeviceKeyStore,
        presenter: some VerificationPresenter, language: LatchLanguage, timeZone: TimeZone = .current,
        passkeys: (any PasskeyAuthenticator)? = nil
    ) async -> ApprovalVerificationOutcome {
        switch await verify(
            context, authenticator: authenticator, keys: keys, presenter: presenter, language: language,
            timeZone: timeZone, passkeys: passkeys)
        {
        case .succeeded(let proof): return .passed(token: proof.token)
        case .cancelled: return .cancelled
        case .failed: return .failed
        }
    }
}
