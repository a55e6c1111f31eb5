// Issue 31 §3 in the terminal: `latch` with the simulated App Attest attester (LATCH_APP_ATTEST_SIMULATED_APP_ID,
// its CA kept in the home) against a real latchd that requires App Attest and trusts that CA's root.
import Crypto
import Foundation
import LatchAttestSimulator
import LatchClient
import LatchCore
import LatchTestSupport
import Testing

@Suite("latch with simulated App Attest (issue 31 §3)", .serialized, .timeLimit(.minutes(10)))
struct AppAttestCLITests {
    static let appID = "ABCDE12345.com.example.latch"

    @Test("31 §3 latch binds an attested Face ID key, verifies a withdrawal and prints the root latchd trusts")
    func test_31_3_attestedBindAndVerify() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-attest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ca = try SimulatedAppAttestCA()
        let rootFile = folder.appendingPathComponent("root.pem")
        try (try ca.rootPEM).write(to: rootFile, atomically: true, encoding: .utf8)
        let environment = [
            "LATCH_APP_ATTEST": "required", "LATCH_APP_ATTEST_APP_IDS": Self.appID,
            "LATCH_APP_ATTEST_ENVIRONMENT": "development", "LATCH_APP_ATTEST_ROOT_CA_FILE": rootFile.path
        ]
        try await journey(.en, environment: environment) { j in
            // The home's simulated CA is the one latchd trusts.
            try await FileVault(directory: j.home()).write(
                ca.rootKey.rawRepresentation, for: SimulatedAppAttestCA.vaultKey)
            let attested = [CLIContext_simulatedAppID: Self.appID]
            func latch(_ arguments: [String], input: String? = nil, attesting: Bool = true) async throws -> LatchRun {
                try await CLITests.latch(
                    arguments + ["--lang", "en"], home: j.home(), server: j.server, input: input,
                    environment: attesting ? attested : [:])
            }
            let signup = try await latch(
                ["signup", "a31@example.com", "--password-stdin", "--accept-terms", "--code-from-outbox"],
                input: Journey.password)
            try #require(signup.status == 0, "\(signup)")

            // Without the attester latchd binds nothing.
            let plain = try await latch(["biometrics", "enable", "--simulate", "match"], attesting: false)
            #expect(plain.status != 0, "\(plain)")

            let enable = try await latch(["biometrics", "enable", "--simulate", "match"])
            #expect(enable.status == 0, "\(enable)")
            let vault = FileVault(directory: j.home())
            let client = LatchClient(
                serverURL: j.server.url, vault: vault, dpopKeys: SoftwareDPoPKeyStore(vault: vault))
            _ = await client.restoreSession()
            let credential = try #require(try await client.deviceCredentials().first)
            #expect(credential.attested == true && credential.app?.bundleId == "com.example.latch")

            // A Face ID withdrawal: the attempt carries the attested key's assertion (required here).
            let verify = try await latch(["verify", "withdrawal", "amount=10", "address=TX31", "--simulate", "match"])
            #expect(verify.status == 0, "\(verify)")

            let root = try await latch(["app-attest", "root-ca"])
            #expect(root.status == 0 && root.output.contains("-----BEGIN CERTIFICATE-----"), "\(root)")
        }
    }
}

/// The variable `latch` reads (`CLIContext.simulatedAppIDVariable`).
let CLIContext_simulatedAppID = "LATCH_APP_ATTEST_SIMULATED_APP_ID"
