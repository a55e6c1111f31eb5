import LatchClient
import LatchCore

extension CLIContext {
    /// Runs `work` without a proof; when the server asks for a verification first (a session older
    /// than 10 minutes: `VERIFICATION_REQUIRED`, or a passkey call's `verificationRequired` naming its action
    /// and parameters), runs the verification page for it and runs `work` once more with the proof.
    /// A cancelled page exits 3, as `TerminalVerification` does.
    ///
    ///     let document = try await context.callVerifyingWhenAsked(
    ///         action: LatchClient.exportAccountAction, simulation: simulation, secrets: secrets
    ///     ) { proof in try await context.client.exportAccountData(verification: proof) }
    @discardableResult
    func callVerifyingWhenAsked<T>(
        action: String, parameters: [String: String] = [:], simulation: SensorOptions, secrets: SecretOptions,
        _ work: (VerificationProof?) async throws -> T
    ) async throws -> T {
        let asked: (action: String, parameters: [String: String])
        do {
            return try await Progress(terminal: terminal).run(text.connecting) { try await work(nil) }
        } catch let error as LatchClientError where error.code == .verificationRequired {
            asked = (action, parameters)
        } catch PasskeyError.verificationRequired(let action, let parameters) {
            asked = (action, parameters)
        } catch {
            throw failure(for: error)
        }
        let proof = try await TerminalVerification(
            context: self, answers: simulation.answers, code: secrets.code, fundPassword: await secrets.fundPassword()
        )
        .verify(asked.action, parameters: asked.parameters)
        return try await call(text.connecting) { try await work(proof) }
    }
}
