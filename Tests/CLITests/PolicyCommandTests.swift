import Foundation
import LatchTestSupport
import Testing

/// Issue 30 §1: the real latchd binary with a policy file: operators print the policy it runs, and a bad
/// file stops it with exit status 2 and one line naming the file, the key and what is wrong.
@Suite("latchd and the verification policy file (issue 30 §1)")
struct PolicyCommandTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/examples/exchange-policy.json")

    @Test("30 §1 latchd admin policy prints the policy latchd runs (the example policy file), defaults filled in")
    func test_30_1_adminPolicyCommand() async throws {
        try await withLatchd(environment: ["LATCH_POLICY_FILE": Self.example.path]) { server in
            let run = try await server.run(["admin", "policy"])
            #expect(run.status == 0, "\(run.errors)")
            let printed = try JSONDecoder().decode(PrintedPolicy.self, from: Data(run.output.utf8))
            #expect(printed.file == Self.example.path)
            let withdrawal = try #require(printed.actions["withdrawal"])
            #expect(withdrawal.daily_limit == ["USDT": "50000", "BTC": "1"], "\(run.output)")
            #expect(withdrawal.other_units == "refuse", "\(run.output)")
            #expect(withdrawal.new_value_lock?["duration"] == "5s")
            let fallback = try #require(printed.actions["default"])
            #expect(fallback.kinds == ["biometric", "passkey", "totp", "fund_password"])
        }
    }

    @Test("30 §1 a bad policy file stops latchd: exit status 2, one line naming the file, the key and what is wrong")
    func test_30_1_badPolicyFileExitsTwo() async throws {
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString).json")
        try Data(#"{"actions": {"withdrawal": {"factors": 3}}}"#.utf8).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        try await withLatchd { server in
            var environment = server.environment
            environment["LATCH_POLICY_FILE"] = bad.path
            for arguments in [["serve"], ["admin", "policy"]] {
                let run = try await LatchdProcess.run(arguments, environment: environment, directory: server.folder)
                #expect(run.status == 2, "\(arguments): \(run.errors)")
                let lines = run.errors.split(separator: "\n")
                #expect(lines.count == 1, "\(run.errors)")
                #expect(
                    run.errors.contains("LATCH_POLICY_FILE") && run.errors.contains(bad.path)
                        && run.errors.contains("actions.withdrawal.factors"), "\(run.errors)")
            }
        }
    }
}

/// What `latchd admin policy` prints, as far as the tests read it.
private struct PrintedPolicy: Decodable {
    struct Action: Decodable {
        var daily_limit: [String: String]?
        var other_units: String?
        var new_value_lock: [String: String]?
        var kinds: [String]?
    }
    var file: String?
    var actions: [String: Action]
}
