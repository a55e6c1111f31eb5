// The simulated sensor beyond the eight journeys: a refused permission (A6) that stays refused in
// the home until it is granted again, a lockout (A7), Touch ID (A10), no binding (B6), 2FA off (D1).
import Foundation
import LatchCore
import Testing

@Suite("latch simulated sensor", .serialized, .timeLimit(.minutes(10)))
struct SensorTests {
    @Test("A6 refused Face ID permission: 无法使用Face ID…, 使用密码验证; it stays refused until granted (zh-Hans)")
    func A6_refusedPermissionOffersPasswordInChinese() async throws {
        try await journey(.zhHans) { j in
            try await j.signUpWithFaceID("a6@example.com", fundPassword: Journey.fundPassword)
            let verify = ["verify", "withdrawal", "amount=1.00", "currency=USDT"]

            let refused = try await j.latch(
                verify + ["--simulate", "deny-permission", "--fund-password-stdin"], input: Journey.fundPassword)
            let later = try await j.latch(verify + ["--fund-password-stdin"], input: Journey.fundPassword)
            let granted = try await j.latch(["biometrics", "sensor", "--grant-permission"])
            let again = try await j.latch(verify + ["--simulate", "match"])

            #expect(refused.status == 0, "\(refused)")
            #expect(
                refused.showsInOrder([
                    "→ 拒绝权限", "无法使用Face ID，请在设置中开启相机权限", "[使用密码验证]", "【资金密码验证】", "验证成功", "（验证方式：资金密码）"
                ]), "\(refused)")
            // The next run starts at the refusal, with no prompt.
            #expect(later.status == 0 && !later.output.contains("［模拟 Face ID］"), "\(later)")
            #expect(later.showsInOrder(["无法使用Face ID，请在设置中开启相机权限", "验证成功"]), "\(later)")
            #expect(granted.output.contains("模拟传感器：Face ID，可用"), "\(granted)")
            #expect(again.status == 0 && again.output.contains("（验证方式：生物识别）"), "\(again)")
        }
    }

    @Test("A7 A10 Touch ID locked out degrades to the fund password (en)")
    func A7_lockoutDegradesToPasswordInEnglish() async throws {
        try await journey(.en) { j in
            try await j.signUp("a7@example.com")
            let fund = try await j.latch(["fund-password", "set", "--fund-password-stdin"], input: Journey.fundPassword)
            let enable = try await j.latch(["biometrics", "enable", "--sensor", "touch-id", "--simulate", "match"])
            try #require(fund.status == 0 && enable.status == 0, "\(fund)\n\(enable)")

            let verify = try await j.latch(
                ["verify", "withdrawal", "amount=2.00", "--simulate", "lockout", "--fund-password-stdin"],
                input: Journey.fundPassword)

            #expect(enable.output.contains("Touch ID sign-in and verification are on."), "\(enable)")
            #expect(verify.status == 0, "\(verify)")
            #expect(
                verify.showsInOrder([
                    "【Touch ID】", "Use Touch ID to verify.", "→ locked out",
                    "Touch ID is locked. Please verify with your password.",
                    "Verified.", "(verified by fund password)"
                ]), "\(verify)")
        }
    }

    @Test(
        "issue 11 B2 −8: failures are kept across runs; a locked Face ID offers the device passcode, which unlocks it, then Face ID verifies (zh-Hans)"
    )
    func test_11_1_lockoutOffersPasscodeInChinese() async throws {
        try await journey(.zhHans) { j in
            try await j.signUpWithFaceID("lock@example.com", fundPassword: Journey.fundPassword)
            let verify = ["verify", "withdrawal", "amount=4.00", "currency=USDT"]

            // A failed scan, then the prompt's Cancel: one failed attempt; the fund password finishes.
            let failed = try await j.latch(
                verify + ["--simulate", "fail,cancel", "--fund-password-stdin"], input: Journey.fundPassword)
            let counted = try await j.latch(["biometrics", "sensor"])
            // Locked elsewhere: the password page offers the passcode, which brings Face ID back.
            let unlocked = try await j.latch(verify + ["--simulate", "lockout,passcode,match"])
            let after = try await j.latch(["biometrics", "sensor"])

            #expect(failed.status == 0 && failed.showsInOrder(["→ 不匹配", "→ 取消", "第1/3次尝试失败", "验证成功"]), "\(failed)")
            #expect(counted.output.contains("模拟传感器：Face ID，可用，连续失败1次"), "\(counted)")
            #expect(unlocked.status == 0, "\(unlocked)")
            #expect(
                unlocked.showsInOrder([
                    "→ 已锁定", "Face ID已被锁定，请使用密码验证", "[输入设备密码解锁Face ID]", "［模拟 设备密码］ 输入设备密码以解锁Face ID → 输入设备密码",
                    "→ 匹配", "验证成功", "（验证方式：生物识别）"
                ]), "\(unlocked)")
            #expect(after.output.contains("模拟传感器：Face ID，可用") && !after.output.contains("连续失败"), "\(after)")
        }
    }

    @Test("B6 no biometric sign-in on a device that never enabled it (zh-Hans)")
    func B6_noBindingNoBiometricSignInInChinese() async throws {
        try await journey(.zhHans) { j in
            try await j.signUp("b6@example.com")
            _ = try await j.latch(["logout"])

            let login = try await j.latch(["login", "--biometric", "--simulate", "match"])

            #expect(login.status == 1, "\(login)")
            #expect(login.errors.contains("此设备未开启面容或指纹登录"), "\(login)")
            #expect(!login.output.contains("［模拟 Face ID］"), "no prompt: \(login)")
        }
    }

    @Test("D1 2FA off needs a verification, answered here by a 2FA code (en)")
    func D1_disable2FAAfterVerificationInEnglish() async throws {
        try await journey(.en) { j in
            try await j.signUp("d1@example.com")
            let enabling = try j.start(["2fa", "enable"])
            let secret = try #require(
                JourneyTests.secret(in: try await enabling.waitForOutput(containing: "otpauth://")))
            let totp = TOTP(secret: secret)
            enabling.send(totp.code(at: Date()))
            let enabled = await enabling.finish()
            try #require(enabled.status == 0, "\(enabled)")

            let disable = try await j.latch(["2fa", "disable", "--code", totp.code(at: Date().addingTimeInterval(30))])

            #expect(disable.status == 0, "\(disable)")
            #expect(
                disable.showsInOrder([
                    "【Two-Factor Authentication】", "Verified.", "Two-factor authentication is off."
                ]), "\(disable)")
        }
    }

    @Test("D2 changing the fund password runs the verification page first (Face ID); the new one then works (zh-Hans)")
    func D2_changeFundPasswordAfterVerificationInChinese() async throws {
        // About the change, not the hold it starts (SecurityHoldTests, AccountSecurityCLITests).
        try await journey(.zhHans, environment: ["LATCH_SECURITY_HOLD_HOURS": "0"]) { j in
            try await j.signUpWithFaceID("d2@example.com", fundPassword: Journey.fundPassword)

            let change = try await j.latch(
                ["fund-password", "set", "--fund-password-stdin", "--simulate", "match"], input: "864209")
            let old = try await j.latch(
                ["verify", "withdrawal", "amount=3.00", "--simulate", "password", "--fund-password-stdin"],
                input: Journey.fundPassword)
            let new = try await j.latch(
                ["verify", "withdrawal", "amount=3.00", "--simulate", "password", "--fund-password-stdin"],
                input: "864209")

            #expect(change.status == 0, "\(change)")
            #expect(change.showsInOrder(["【Face ID】", "→ 匹配", "验证成功", "资金密码已设置"]), "\(change)")
            #expect(old.status == 1 && old.output.contains("资金密码错误"), "\(old)")
            #expect(new.status == 0 && new.output.contains("（验证方式：资金密码）"), "\(new)")
        }
    }
}
