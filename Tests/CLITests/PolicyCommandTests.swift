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
            let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            #expect(json["file"] as? String == Self.example.path)
            let actions = try #require(json["actions"] as? [String: Any])
            let withdrawal = try #require(actions["withdrawal"] as? [String: Any])
            #expect((withdrawal["daily_limit"] as? [String: String]) == ["USDT": "50000", "BTC": "1"], "\(run.output)")
            #expect(withdrawal["other_units"] as? String == "refuse", "\(run.output)")
            #expect((withdrawal["new_value_lock"] as? [String: String])?["duration"] == "5s")
            let fallback = try #require(actions["default"] as? [String: Any])
            #expect(fallback["kinds"] as? [String] == ["biometric", "passkey", "totp", "fund_password"])
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
