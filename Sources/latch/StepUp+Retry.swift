import LatchClient

extension StepUp {
    /// Runs `work` without a proof; when the server answers VERIFICATION_REQUIRED (the sign-in is older than
    /// 10 minutes), runs the verification page for `action` (parameters `[:]`) and runs `work` again with
    /// its proof. Every other failure becomes one line.
    static func whenAsked<Result>(
        context: CLIContext, simulation: SensorOptions, secrets: SecretOptions, action: String,
        _ work: (VerificationProof?) async throws -> Result
    ) async throws -> Result {
        do {
            return try await Progress(terminal: context.terminal).run(context.text.connecting) { try await work(nil) }
        } catch let error as LatchClientError where error.code == .verificationRequired {
            let fundPassword = await secrets.fundPassword()
            let proof = try await StepUp(
                context: context, answers: simulation.answers, code: secrets.code, fundPassword: fundPassword
            )
            .verify(action, parameters: [:])
            return try await context.call(context.text.connecting) { try await work(proof) }
        } catch {
            throw context.failure(for: error)
        }
    }
}
