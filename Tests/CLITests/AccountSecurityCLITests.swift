// Issue 19 in the CLI against a real latchd: `latch account security`, `account anti-phishing`,
// `account freeze`, `password reset` and the hold page of `latch verify` (exit 4). These need the server
// side of issue 19 (CONTRACT-19); the last test, HTTPS-only server URLs (issue 23 §1), needs no server.
import Foundation
import LatchCore
import LatchTestSupport
import Testing

@Suite("latch account security (issue 19)", .serialized, .timeLimit(.minutes(10)))
struct AccountSecurityCLITests {
    @Test("test_19_4 latch account anti-phishing set, then security shows the code; remove clears it (en)")
    func test_19_4_antiPhishingCodeInEnglish() async throws { try await antiPhishingCode(.en) }

    @Test("test_19_4 latch account anti-phishing set, then security shows the code; remove clears it (zh-Hans)")
    func test_19_4_antiPhishingCodeInChinese() async throws { try await antiPhishingCode(.zhHans) }

    private func antiPhishingCode(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUp("code@example.com")

            let set = try await j.latch(["account", "anti-phishing", "set", "MyCode42"])
            #expect(set.status == 0, "\(set)")
            #expect(
                set.output.contains(j.text("防钓鱼码已设置为 MyCode42", "The anti-phishing code is now MyCode42")), "\(set)")

            let security = try await j.latch(["account", "security"])
            #expect(security.status == 0, "\(security)")
            #expect(security.output.contains(j.text("防钓鱼码：MyCode42", "Anti-phishing code: MyCode42")), "\(security)")
            #expect(security.output.contains(j.text("没有进行中的安全暂停", "No security hold is running.")), "\(security)")

            let refused = try await j.latch(["account", "anti-phishing", "set", "a b"])
            #expect(refused.status == 1, "a space is not a visible character: \(refused)")

            let removed = try await j.latch(["account", "anti-phishing", "remove"])
            #expect(removed.status == 0, "\(removed)")
            let after = try await j.latch(["account", "security", "--json"])
            #expect(
                after.output.contains(#""anti_phishing_code" : null"#) || !after.output.contains("MyCode42"), "\(after)"
            )
        }
    }

    @Test("test_23_1 latch account security shows the new-device notice switch and turns it off and on (en)")
    func test_23_1_newDeviceNoticeInEnglish() async throws { try await newDeviceNotice(.en) }

    @Test("test_23_1 latch account security shows the new-device notice switch and turns it off and on (zh-Hans)")
    func test_23_1_newDeviceNoticeInChinese() async throws { try await newDeviceNotice(.zhHans) }

    private func newDeviceNotice(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUp("notice@example.com")

            let shown = try await j.latch(["account", "security"])
            #expect(shown.status == 0, "\(shown)")
            #expect(
                shown.output.contains(j.text("新设备登录时通知：开启", "Notify me of sign-ins from new devices: on")), "\(shown)")

            let off = try await j.latch(["account", "security", "--new-device-notice", "off"])
            #expect(off.status == 0, "\(off)")
            #expect(
                off.output.contains(j.text("新设备登录时通知：关闭", "Notify me of sign-ins from new devices: off")), "\(off)")
            let afterOff = try await j.latch(["account", "security"])
            #expect(
                afterOff.output.contains(j.text("新设备登录时通知：关闭", "Notify me of sign-ins from new devices: off")),
                "the server keeps it: \(afterOff)")

            let on = try await j.latch(["account", "security", "--new-device-notice", "on"])
            #expect(
                on.status == 0
                    && on.output.contains(j.text("新设备登录时通知：开启", "Notify me of sign-ins from new devices: on")),
                "\(on)")
            let wrong = try await j.latch(["account", "security", "--new-device-notice", "maybe"])
            #expect(wrong.status != 0, "\(wrong)")
        }
    }

    @Test("test_19_3 latch account freeze signs every device out; sign-in answers ACCOUNT_FROZEN (en)")
    func test_19_3_freezeInEnglish() async throws { try await freeze(.en) }

    @Test("test_19_3 latch account freeze signs every device out; sign-in answers ACCOUNT_FROZEN (zh-Hans)")
    func test_19_3_freezeInChinese() async throws { try await freeze(.zhHans) }

    private func freeze(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUp("freeze@example.com")

            let declined = try await j.latch(["account", "freeze"], input: "no")
            #expect(declined.status == 3, "\(declined)")

            let frozen = try await j.latch(["account", "freeze"], input: j.text("是", "yes"))
            #expect(frozen.status == 0, "\(frozen)")
            #expect(frozen.output.contains(j.text("账号已冻结", "The account is frozen")), "\(frozen)")
            #expect(try await j.latch(["whoami"]).status == 1, "signed out here")

            let login = try await j.latch(["login", "freeze@example.com", "--password-stdin"], input: Journey.password)
            #expect(login.status == 1, "\(login)")
            #expect(login.errors.contains("latch password reset"), "says how to recover: \(login)")

            // The password reset by emailed code unfreezes (no 2FA on this account).
            let reset = try await j.latch(
                ["password", "reset", "freeze@example.com", "--password-stdin", "--code-from-outbox"],
                input: "Another-Horse-7")
            #expect(reset.status == 0, "\(reset)")
            let again = try await j.latch(
                ["login", "freeze@example.com", "--password-stdin", "--code-from-outbox"], input: "Another-Horse-7")
            #expect(again.status == 0, "\(again)")

            // The reset started a hold: it is listed.
            let security = try await j.latch(["account", "security"])
            #expect(security.output.contains("withdrawal"), "\(security)")
        }
    }

    @Test("test_19_2 latch verify during a hold prints the hold page and exits 4 (en)")
    func test_19_2_verifyHeldInEnglish() async throws { try await verifyHeld(.en) }

    @Test("test_19_2 latch verify during a hold prints the hold page and exits 4 (zh-Hans)")
    func test_19_2_verifyHeldInChinese() async throws { try await verifyHeld(.zhHans) }

    private func verifyHeld(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUp("held@example.com")
            let fund = try await j.latch(["fund-password", "set", "--fund-password-stdin"], input: Journey.fundPassword)
            try #require(fund.status == 0, "\(fund)")
            // A password reset is a security change: withdrawals are held for 24 hours.
            let reset = try await j.latch(
                ["password", "reset", "held@example.com", "--password-stdin", "--code-from-outbox"],
                input: "Another-Horse-7")
            try #require(reset.status == 0, "\(reset)")
            let login = try await j.latch(
                ["login", "held@example.com", "--password-stdin", "--code-from-outbox"], input: "Another-Horse-7")
            try #require(login.status == 0, "\(login)")

            let verify = try await j.latch(
                ["verify", "withdrawal", "amount=1.00", "currency=USDT", "--fund-password-stdin"],
                input: Journey.fundPassword)

            #expect(verify.status == 4, "\(verify)")
            #expect(
                verify.output.contains(
                    j.text(
                        "为保障资金安全，安全设置变更后24小时内暂停提现",
                        "For your security, withdrawals are paused for 24 hours after a security change")), "\(verify)")
            #expect(verify.output.contains(j.text("原因：登录密码已重置", "Why: your password was reset.")), "\(verify)")
            #expect(verify.output.contains(j.text("恢复时间：", "Available again: ")), "\(verify)")
            #expect(!verify.output.contains(j.text("资金密码验证", "Fund Password")), "no method offered: \(verify)")

            // Another action is not held.
            let other = try await j.latch(
                ["verify", "change_nickname", "--fund-password-stdin"], input: Journey.fundPassword)
            #expect(other.status != 4, "\(other)")
        }
    }
}

@Suite("latch server URL (issue 23 §1)", .timeLimit(.minutes(10)))
struct ServerURLTests {
    @Test("test_23_1 latch refuses a plain http server that is not this machine (exit 2)")
    func test_23_1_httpsOnlyExceptLoopback() async throws {
        try await withLatchd { server in
            let home = server.folder.appendingPathComponent("https")
            for language in ["en", "zh-Hans"] {
                let run = try await latch(
                    ["whoami", "--server", "http://auth.example.com", "--lang", language], home: home, server: server)
                #expect(run.status == 2, "\(run)")
                #expect(run.errors.contains("https://"), "\(run)")
            }
        }
    }
}

@Suite("latch verify --description (issue 23 §1)", .serialized, .timeLimit(.minutes(10)))
struct VerifyDescriptionTests {
    @Test("test_23_1 the caller's description is on the card (en)")
    func test_23_1_callerDescriptionOnTheCardInEnglish() async throws { try await callerDescription(.en) }

    @Test("test_23_1 the caller's description is on the card (zh-Hans)")
    func test_23_1_callerDescriptionOnTheCardInChinese() async throws { try await callerDescription(.zhHans) }

    private func callerDescription(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUpWithFaceID("card@example.com")
            let description = j.text("提现 100 USDT 至 TXabc…", "Withdraw 100 USDT to TXabc…")

            let verify = try await j.latch(
                [
                    "verify", "withdrawal", "amount=100.00", "currency=USDT", "--description", description,
                    "--simulate", "cancel"
                ])

            #expect(verify.status == 3, "\(verify)")
            #expect(verify.showsInOrder(["【Face ID】", description]), "\(verify)")
        }
    }
}
