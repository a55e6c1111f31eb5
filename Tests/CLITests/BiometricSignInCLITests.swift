// Issue 28 §3: the biometric offer after `latch login` (seed 004 §9.2, asked only at a terminal), and
// `latch login --biometric` after a lockout offering the device passcode as the SDK's sign-in screen does.
import Foundation
import LatchCore
import Testing

@Suite(
    "latch biometric sign-in: the offer after login, the passcode after a lockout", .serialized,
    .timeLimit(.minutes(10)))
struct BiometricSignInCLITests {
    @Test(
        "issue 28 §3 after latch login at a terminal Face ID sign-in is offered; y and a match turn it on, and latch login --biometric then signs in (zh-Hans)"
    )
    func test_28_3_loginOffersFaceIDAndYesTurnsItOnInChinese() async throws {
        try await journey(.zhHans) { j in
            try await j.signUp("offer@example.com")
            _ = try await j.latch(["logout"])

            let login = try await j.latchAtTerminal(
                ["login", "offer@example.com", "--password-stdin"], typing: [Journey.password, "y", "m"])
            let status = try await j.latch(["biometrics", "status"])
            _ = try await j.latch(["logout"])
            let biometric = try await j.latch(["login", "--biometric", "--simulate", "match"])

            #expect(login.status == 0, "\(login)")
            #expect(
                login.showsInOrder([
                    "已登录：offer@example.com", "下次可使用面容快速登录，无需输入密码", "［模拟 Face ID］ 验证Face ID以开启面容登录", "面容登录已开启"
                ]), "\(login)")
            #expect(login.errors.contains("启用面容登录？ [y/N]"), "\(login)")
            #expect(status.output.contains("面容登录：已开启（Face ID"), "\(status)")
            #expect(biometric.status == 0 && biometric.output.contains("已通过面容登录：offer@example.com"), "\(biometric)")
        }
    }

    @Test(
        "issue 28 §3 a script is never offered Face ID sign-in; Not Now at a terminal is remembered and the next login does not ask (en)"
    )
    func test_28_3_notNowIsRememberedAndScriptsAreNotAskedInEnglish() async throws {
        try await journey(.en) { j in
            try await j.signUp("later@example.com")
            _ = try await j.latch(["logout"])
            let login = ["login", "later@example.com", "--password-stdin"]

            let script = try await j.latch(login, input: Journey.password)
            _ = try await j.latch(["logout"])
            let declined = try await j.latchAtTerminal(login, typing: [Journey.password, "n"])
            _ = try await j.latch(["logout"])
            let again = try await j.latchAtTerminal(login, typing: [Journey.password])
            let status = try await j.latch(["biometrics", "status"])

            #expect(script.status == 0 && !script.all.contains("Turn on Face ID sign-in?"), "\(script)")
            #expect(declined.status == 0, "\(declined)")
            #expect(
                declined.output.contains("Next time, sign in with Face ID instead of your password."), "\(declined)")
            #expect(declined.errors.contains("Turn on Face ID sign-in? [y/N]"), "\(declined)")
            #expect(!declined.output.contains("Face ID sign-in is on."), "\(declined)")
            #expect(again.status == 0 && !again.all.contains("Turn on Face ID sign-in?"), "\(again)")
            #expect(status.output.contains("Biometric sign-in: off"), "\(status)")
        }
    }

    @Test(
        "issue 28 §3 latch login --biometric after a lockout offers the device passcode as the SDK does: without it the run ends locked; with it Face ID is unlocked and signs in (zh-Hans)"
    )
    func test_28_3_biometricLoginOffersThePasscodeAfterALockoutInChinese() async throws {
        try await journey(.zhHans) { j in
            try await j.signUpWithFaceID("locked@example.com")
            _ = try await j.latch(["logout"])

            // Locked by this run's prompt, and no passcode follows: the locked screen rests.
            let locked = try await j.latch(["login", "--biometric", "--simulate", "lockout"])
            // The lockout outlives the run: the next one starts at the locked screen and takes the passcode.
            let unlocked = try await j.latch(["login", "--biometric", "--simulate", "passcode,match"])
            let sensor = try await j.latch(["biometrics", "sensor"])

            #expect(locked.status == 1, "\(locked)")
            #expect(
                locked.showsInOrder(["→ 已锁定", "Face ID尝试次数过多已被锁定，请输入系统密码解锁", "[输入设备密码解锁Face ID]"]), "\(locked)")
            #expect(unlocked.status == 0, "\(unlocked)")
            #expect(
                unlocked.showsInOrder([
                    "Face ID尝试次数过多已被锁定，请输入系统密码解锁", "[输入设备密码解锁Face ID]",
                    "［模拟 设备密码］ 输入设备密码以解锁Face ID → 输入设备密码", "→ 匹配", "已通过面容登录：locked@example.com"
                ]), "\(unlocked)")
            #expect(!unlocked.output.contains("→ 已锁定"), "\(unlocked)")
            #expect(sensor.output.contains("模拟传感器：Face ID，可用"), "\(sensor)")
        }
    }

    @Test("issue 28 §3 latch login --biometric after a lockout, the passcode typed at a terminal (en)")
    func test_28_3_biometricLoginTakesThePasscodeAtATerminalInEnglish() async throws {
        try await journey(.en) { j in
            try await j.signUpWithFaceID("typed@example.com")
            _ = try await j.latch(["logout"])
            let locked = try await j.latch(["login", "--biometric", "--simulate", "lockout"])
            try #require(locked.status == 1, "\(locked)")

            // The person enters the passcode (p), then Face ID matches (m).
            let login = try await j.latchAtTerminal(["login", "--biometric"], typing: ["p", "m"])

            #expect(login.status == 0, "\(login)")
            #expect(
                login.showsInOrder([
                    "Face ID is locked", "[Unlock Face ID with Passcode]", "Enter your passcode to unlock Face ID.",
                    "Signed in with Face ID as typed@example.com."
                ]), "\(login)")
        }
    }
}
