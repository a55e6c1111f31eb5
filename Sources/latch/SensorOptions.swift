import ArgumentParser

/// `--simulate LIST`: the simulated sensor's answers for scripts.
struct SensorOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Answers of the simulated sensor, one per prompt: match, fail, cancel, deny-permission, unavailable, lockout, other-method, password. Without it (or when it runs out) the sensor asks [m]atch [n]o match [c]ancel.",
            valueName: "list"))
    var simulate: String?

    func validate() throws {
        if case .failure(let invalid) = SimulatedAnswer.list(simulate ?? "") {
            throw ValidationError(
                "--simulate: '\(invalid.word)' is not one of \(SimulatedAnswer.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    var answers: [SimulatedAnswer] {
        (try? SimulatedAnswer.list(simulate ?? "").get()) ?? []
    }
}
