import ArgumentParser

/// `--simulate LIST`: the simulated sensor's steps for scripts (see `SimulatedAnswer`).
struct SensorOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Steps of the simulated sensor, in order across its prompts: match, fail (a failed scan or touch), try-again, cancel, fallback, passcode, deny-permission, unavailable, lockout, other-method, password. Face ID scans again by itself and never reports -1; Touch ID reports -1 after three failed touches; five failures in a row lock it out until passcode. Without it (or when it runs out) the sensor asks at each step.",
            valueName: "list"))
    var simulate: String?

    func validate() throws {
        if case .failure(let invalid) = SimulatedAnswer.list(simulate ?? "") {
            throw ValidationError(
                "--simulate: '\(invalid.word)' is not one of \(SimulatedAnswer.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
    }

    var answers: [SimulatedAnswer] {
        (try? SimulatedAnswer.list(simulate ?? "").get()) ?? []
    }
}
