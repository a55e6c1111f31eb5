import Foundation
import LatchClient
import LatchCore

/// Runs the SDK's verification page for one action in the terminal (A1–A10): the simulated sensor
/// of this home, answers from `--simulate`, secrets from `--code` / `--fund-password-stdin` or prompts.
struct TerminalVerification {
    let context: CLIContext
    let answers: [SimulatedAnswer]
    let code: String?
    let fundPassword: String?
    /// Where the emailed code comes from (issue 30 §3); `nil`: the person types it.
    var emailCodes: VerificationEmailCodes? = nil

    /// The proof of a passed verification of `action`; a cancel throws exit status 3, a security hold 4
    /// (after the hold page was printed), a policy limit 5, a locked new value 6 (issue 30 §3), anything else 1.
    func verify(_ action: String, parameters: [String: String], description: String? = nil) async throws
        -> VerificationProof
    {
        let text = context.text
        let page = VerificationPage()
        let state = await SimulatedSensorState.load(from: context.vault)
        let sensorAnswers = SensorAnswers(script: answers, terminal: context.terminal, text: text, page: page)
        let kind = state.kind
        let sensor = await state.authenticator { prompt in await sensorAnswers.step(for: prompt, kind: kind) }
        let presenter = TerminalVerificationPresenter(
            terminal: context.terminal, text: text, page: page, answers: sensorAnswers,
            secrets: VerificationSecrets(code: code, fundPassword: fundPassword), emailCodes: emailCodes)

        let result = await context.client.verify(
            VerificationContext(action: action, parameters: parameters, localizedReason: description),
            authenticator: sensor, keys: context.keys,
            presenter: presenter, language: context.language, passkeys: context.passkeys)
        try? await SimulatedSensorState.reading(sensor).save(to: context.vault)

        switch result {
        case .succeeded(let proof):
            return proof
        case .cancelled:
            switch page.currentKind {
            case .securityHold?: throw CLIFailure.held()
            case .policyLimit?: throw CLIFailure.policyLimit()
            case .newValueLocked?: throw CLIFailure.newValueLocked()
            default: break
            }
            guard let reason = page.giveUpReason else { throw CLIFailure.cancelled() }
            if page.currentKind == .startFailed, await !serverAnswers() {
                throw CLIFailure.failed(text.serverUnreachable)
            }
            throw CLIFailure.failed(reason)
        case .failed(.sessionExpired):
            throw CLIFailure.failed(LatchErrorCode.sessionExpired.message(in: context.language))
        case .failed(.noVerificationMethod):
            throw CLIFailure.failed(LatchErrorCode.noVerificationMethod.message(in: context.language))
        }
    }

    /// Whether the server answers at all (`GET /health`), to say why a verification could not start.
    private func serverAnswers() async -> Bool {
        let health = context.serverURL.appendingPathComponent("health")
        return (try? await context.client.api.send(HTTPRequest(method: "GET", url: health))) != nil
    }
}
