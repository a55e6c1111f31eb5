import ArgumentParser
import LatchAttestSimulator
import LatchClient

/// `latch app-attest root-ca`: the root certificate (PEM) of this home's simulated App Attest CA (issue
/// 31 §3), for latchd's `LATCH_APP_ATTEST_ROOT_CA_FILE`. The CA is made on first use and kept in the home;
/// binds are attested with it when `LATCH_APP_ATTEST_SIMULATED_APP_ID` names the app (`TEAMID.bundle.id`).
struct AppAttestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-attest", abstract: "The simulated App Attest attester of this home.",
        subcommands: [AppAttestRootCACommand.self])
}

/// `latch app-attest root-ca`.
struct AppAttestRootCACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "root-ca", abstract: "Print the simulated App Attest CA's root certificate (PEM) for latchd.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let context = CLIContext(global)
        let pem = try await SimulatedAppAttestCA.stored(in: context.vault).rootPEM
        context.terminal.line(pem)
    }
}
