// Issue 30 §3 in the terminal: `latch verify` under a verification policy (LATCH_POLICY_FILE) — two
// factors printed step by step (Face ID, then the emailed code from the development outbox), the daily
// limit (exit 5) and a new address still locked (exit 6). A real latchd, the real `latch` binary.
import Foundation
import LatchCore
import Testing

@Suite("latch verify under a policy (issue 30 §3)", .serialized, .timeLimit(.minutes(10)))
struct PolicyCLITests {
    /// Withdrawals need Face ID and the emailed code, up to 1000 USDT a day; transfers lock new addresses.
    static let policy = """
        {"actions": {
           "withdrawal": {"factors": 2, "kinds": ["biometric", "email_code"],
                          "amount": {"parameter": "amount", "unit": "currency"}, "daily_limit": {"USDT": "1000"}},
           "transfer": {"factors": 1, "new_value_lock": {"parameter": "address", "duration": "24h"}}}}
        """

    @Test("30 §3 a two-factor withdrawal, then the limit (5) and a locked new address (6) (zh-Hans)")
    func test_30_3_twoFactorWithdrawalInChinese() async throws { try await twoFactorWithdrawal(.zhHans) }

    @Test("30 §3 a two-factor withdrawal, then the limit (5) and a locked new address (6) (en)")
    func test_30_3_twoFactorWithdrawalInEnglish() async throws { try await twoFactorWithdrawal(.en) }

    @Test(
        "30 §3 at a terminal the emailed code's page takes `r` for Resend: while the wait runs it prints the seconds left and asks again, and the page is not drawn again each second"
    )
    func test_30_3_terminalResendKey() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("policy.json")
        try #"{"actions": {"withdrawal": {"factors": 1, "kinds": ["email_code"]}}}"#.write(
            to: file, atomically: true, encoding: .utf8)

        try await journey(.en, environment: ["LATCH_POLICY_FILE": file.path]) { j in
            try await j.signUp("r30@example.com")
            let session = try j.start(["verify", "withdrawal", "amount=1", "address=TXr30"], atTerminal: true)
            _ = try await session.waitForOutput(containing: "[Send Code] [Cancel]")
            session.send("1")
            _ = try await session.waitForOutput(containing: "We emailed you a code.")
            // Seconds of the resend wait pass (not polling): a page drawn again each second would show.
            try await Task.sleep(for: .seconds(2))
            session.send("r")
            let waited = try await session.waitForOutput(containing: "Resend in ")
            #expect(
                waited.components(separatedBy: "【Email Code】").count - 1 == 2, "the send page and the entry: \(waited)")
            #expect(!waited.contains("Enter the 6-digit"), "`r` is not taken for a code: \(waited)")
            session.send("c")
            let run = await session.finish()
            #expect(run.status == 3, "cancelled: \(run)")
        }
    }

    private func twoFactorWithdrawal(_ language: LatchLanguage) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("policy.json")
        try Self.policy.write(to: file, atomically: true, encoding: .utf8)

        try await journey(language, environment: ["LATCH_POLICY_FILE": file.path]) { j in
            try await j.signUpWithFaceID("p30@example.com")

            // Face ID, then the emailed code read from the outbox.
            let verify = try await j.latch(
                [
                    "verify", "withdrawal", "amount=100.00", "currency=USDT", "address=TXp30", "--simulate", "match",
                    "--code-from-outbox"
                ])
            #expect(verify.status == 0, "\(verify)")
            #expect(
                verify.showsInOrder([
                    "【Face ID】",
                    j.text("需要两项验证", "Two verifications are needed."),
                    j.text("已通过面容验证，还需完成一项验证", "Face ID passed. One more verification is needed."),
                    j.text("邮箱验证码", "Email Code"),
                    j.text("验证成功", "Verified."),
                    j.text("已确认并执行：withdrawal", "Confirmed and executed: withdrawal")
                ]), "\(verify)")

            // Over the day's limit: the limit page, exit 5.
            let limited = try await j.latch(
                ["verify", "withdrawal", "amount=5000", "currency=USDT", "address=TXp30", "--simulate", "match"])
            #expect(limited.status == 5, "\(limited)")
            #expect(
                limited.showsInOrder([
                    j.text("已达提现限额", "Withdrawal Limit Reached"),
                    j.text("限额：1000 USDT", "Limit: 1000 USDT.")
                ]), "\(limited)")

            // A transfer to a new address: locked for 24 hours, exit 6.
            let locked = try await j.latch(["verify", "transfer", "address=TXnew", "--simulate", "match"])
            #expect(locked.status == 6, "\(locked)")
            #expect(
                locked.showsInOrder([
                    j.text("新地址暂不可用", "New Address Not Yet Usable"),
                    j.text("恢复时间：", "Available again: ")
                ]), "\(locked)")
        }
    }
}
