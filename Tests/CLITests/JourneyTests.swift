// Issue 5's journeys J1–J8: a real latchd binary on a loopback port, the real `latch` binary as a
// subprocess per step (its own LATCH_HOME per simulated device), each journey in zh-Hans and English.
import Foundation
import LatchCore
import Testing

@Suite("latch journeys J1–J8", .serialized, .timeLimit(.minutes(10)))
struct JourneyTests {
    // MARK: J1 sign up with the emailed code

    @Test("J1 C2 C3 sign up with the emailed code (zh-Hans)")
    func C2_signUpWithEmailedCodeInChinese() async throws { try await J1_C2_signUpWithEmailedCode(.zhHans) }

    @Test("J1 C2 C3 sign up with the emailed code (en)")
    func C2_signUpWithEmailedCodeInEnglish() async throws { try await J1_C2_signUpWithEmailedCode(.en) }

    private func J1_C2_signUpWithEmailedCode(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            let signup = try await j.latch(
                [
                    "signup", "j1@example.com", "--nickname", "Alice", "--password-stdin", "--accept-terms",
                    "--code-from-outbox"
                ],
                input: Journey.password)

            #expect(signup.status == 0, "\(signup)")
            #expect(
                signup.showsInOrder([
                    j.text("密码强度：████ 很强", "Password strength: ████ Very strong"),
                    j.text("验证码已发送至 j1@example.com", "A 6-digit code was sent to j1@example.com."),
                    j.text("注册成功，已登录：j1@example.com", "Signed up and signed in as j1@example.com.")
                ]), "\(signup)")
            let whoami = try await j.latch(["whoami", "--json"])
            #expect(whoami.status == 0, "\(whoami)")
            let user = try JSONDecoder().decode([String: JSONValue].self, from: Data(whoami.output.utf8))
            #expect(user["email"] == .string("j1@example.com"))
            #expect(user["nickname"] == .string("Alice"))
            #expect(user["email_verified"] == .bool(true))
        }
    }

    @Test("J1 C3 a weak password is refused before anything is sent (zh-Hans)")
    func C3_weakPasswordRefusedInChinese() async throws { try await J1_C3_weakPasswordRefused(.zhHans) }

    @Test("J1 C3 a weak password is refused before anything is sent (en)")
    func C3_weakPasswordRefusedInEnglish() async throws { try await J1_C3_weakPasswordRefused(.en) }

    private func J1_C3_weakPasswordRefused(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            let signup = try await j.latch(
                ["signup", "weak@example.com", "--password-stdin", "--accept-terms"], input: "abcdefgh")

            #expect(signup.status == 1, "\(signup)")
            #expect(signup.output.contains(j.text("密码强度：█░░░ 弱", "Password strength: █░░░ Weak")), "\(signup)")
            #expect(signup.errors.contains(j.text("需要包含大写字母", "an upper-case letter")), "\(signup)")
        }
    }

    // MARK: C1 phone sign-in (issue 6: `latch login --phone`)

    @Test("C1 sign in with a phone number and the texted code; the first sign-in creates the account (zh-Hans)")
    func C1_phoneSignInInChinese() async throws { try await C1_phoneSignIn(.zhHans) }

    @Test("C1 sign in with a phone number and the texted code; the first sign-in creates the account (en)")
    func C1_phoneSignInInEnglish() async throws { try await C1_phoneSignIn(.en) }

    private func C1_phoneSignIn(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            let login = try await j.latch(["login", "--phone", "+8613800138000", "--code-from-outbox"])

            #expect(login.status == 0, "\(login)")
            #expect(
                login.showsInOrder([
                    j.text("验证码已发送至 +8613800138000", "A 6-digit code was texted to +8613800138000."),
                    j.text("已登录：+8613800138000", "Signed in as +8613800138000.")
                ]), "\(login)")
            let whoami = try await j.latch(["whoami", "--json"])
            #expect(whoami.status == 0 && whoami.output.contains("+8613800138000"), "\(whoami)")
            let wrong = try await j.latch(["login", "--phone", "+8613800138000", "--code", "000000"])
            #expect(wrong.status == 1, "\(wrong)")
            let invalid = try await j.latch(["login", "--phone", "13800138000", "--code", "123456"])
            #expect(
                invalid.status == 1 && invalid.errors.split(separator: "\n").count == 1, "one clear line: \(invalid)")
        }
    }

    // MARK: J2 enable Face ID

    @Test("J2 B5 enable Face ID (zh-Hans)")
    func B5_enableFaceIDInChinese() async throws { try await J2_B5_enableFaceID(.zhHans) }

    @Test("J2 B5 enable Face ID (en)")
    func B5_enableFaceIDInEnglish() async throws { try await J2_B5_enableFaceID(.en) }

    private func J2_B5_enableFaceID(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUp("j2@example.com")

            let enable = try await j.latch(["biometrics", "enable", "--simulate", "match"])
            let status = try await j.latch(["biometrics", "status"])

            #expect(enable.status == 0, "\(enable)")
            #expect(
                enable.showsInOrder([
                    j.text("［模拟 Face ID］", "[simulated Face ID]"), j.text("→ 匹配", "→ match"),
                    j.text("已开启面容登录与验证", "Face ID sign-in and verification are on.")
                ]), "\(enable)")
            #expect(status.output.contains(j.text("面容登录：已开启（Face ID", "Biometric sign-in: on (Face ID")), "\(status)")
            #expect(try await j.server.securityEventTypes(home: j.home()).contains("device_bound"))
        }
    }

    // MARK: J3 sign out, then biometric sign-in

    @Test("J3 B6 C12 sign out, then sign in with Face ID (zh-Hans)")
    func B6_signOutThenBiometricSignInInChinese() async throws { try await J3_B6_signOutThenBiometricSignIn(.zhHans) }

    @Test("J3 B6 C12 sign out, then sign in with Face ID (en)")
    func B6_signOutThenBiometricSignInInEnglish() async throws { try await J3_B6_signOutThenBiometricSignIn(.en) }

    private func J3_B6_signOutThenBiometricSignIn(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUpWithFaceID("j3@example.com")

            let logout = try await j.latch(["logout"])
            let signedOut = try await j.latch(["whoami"])
            let login = try await j.latch(["login", "--biometric", "--simulate", "match"])
            let whoami = try await j.latch(["whoami"])

            #expect(logout.status == 0 && logout.output.contains(j.text("已退出登录", "Signed out.")), "\(logout)")
            #expect(signedOut.status == 1, "\(signedOut)")
            #expect(login.status == 0, "\(login)")
            #expect(
                login.output.contains(
                    j.text("已通过面容登录：j3@example.com", "Signed in with Face ID as j3@example.com.")), "\(login)")
            #expect(whoami.status == 0 && whoami.output.contains("j3@example.com"), "\(whoami)")
        }
    }

    // MARK: J4 withdrawal verified by Face ID

    @Test("J4 A1 A2 withdrawal verified by Face ID, redeemed once (zh-Hans)")
    func A1_A2_withdrawalVerifiedByFaceIDInChinese() async throws {
        try await J4_A1_A2_withdrawalVerifiedByFaceID(.zhHans)
    }

    @Test("J4 A1 A2 withdrawal verified by Face ID, redeemed once (en)")
    func A1_A2_withdrawalVerifiedByFaceIDInEnglish() async throws { try await J4_A1_A2_withdrawalVerifiedByFaceID(.en) }

    private func J4_A1_A2_withdrawalVerifiedByFaceID(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUpWithFaceID("j4@example.com")

            let verify = try await j.latch(
                ["verify", "withdrawal", "amount=100.00", "currency=USDT", "address=TXj4", "--simulate", "match"])

            #expect(verify.status == 0, "\(verify)")
            #expect(
                verify.showsInOrder([
                    "【Face ID】", j.text("使用面容ID进行验证", "Use Face ID to verify."),
                    j.text("验证成功", "Verified."),
                    j.text(
                        "已确认并执行：withdrawal address=TXj4 amount=100.00 currency=USDT（验证方式：生物识别）",
                        "Confirmed and executed: withdrawal address=TXj4 amount=100.00 currency=USDT (verified by biometrics)"
                    )
                ]), "\(verify)")
            let events = try await j.server.securityEventTypes(home: j.home())
            #expect(events.filter { $0 == "verification_redeemed" }.count == 1, "\(events)")
        }
    }

    // MARK: J5 three Face ID / Touch ID failures, then the fund password

    @Test(
        "J5 A3 issue 11 three Face ID failures (failed scans, then the prompt's Cancel), the exact messages, then the fund password (zh-Hans)"
    )
    func A3_threeFaceIDFailuresThenFundPasswordInChinese() async throws {
        try await J5_A3_threeFailuresThenFundPassword(.zhHans, .faceID)
    }

    @Test(
        "J5 A3 issue 11 three Face ID failures (failed scans, then the prompt's Cancel), the exact messages, then the fund password (en)"
    )
    func A3_threeFaceIDFailuresThenFundPasswordInEnglish() async throws {
        try await J5_A3_threeFailuresThenFundPassword(.en, .faceID)
    }

    @Test(
        "J5 A3 issue 11 Touch ID: three touches (−1), a touch then Cancel, then the fifth touch locks (−8): the exact messages (zh-Hans)"
    )
    func A3_threeTouchIDFailuresThenFundPasswordInChinese() async throws {
        try await J5_A3_threeFailuresThenFundPassword(.zhHans, .touchID)
    }

    @Test(
        "J5 A3 issue 11 Touch ID: three touches (−1), a touch then Cancel, then the fifth touch locks (−8): the exact messages (en)"
    )
    func A3_threeTouchIDFailuresThenFundPasswordInEnglish() async throws {
        try await J5_A3_threeFailuresThenFundPassword(.en, .touchID)
    }

    private enum Sensor { case faceID, touchID }

    private func J5_A3_threeFailuresThenFundPassword(_ language: LatchLanguage, _ sensor: Sensor) async throws {
        try await journey(language) { j in
            let name: String
            let steps: String
            switch sensor {
            case .faceID:
                try await j.signUpWithFaceID("j5@example.com", fundPassword: Journey.fundPassword)
                name = "Face ID"
                // Face ID never reports −1: a failed scan, then the prompt's Cancel, is one failed attempt.
                steps = "fail,cancel,fail,fail,cancel,fail,cancel"
            case .touchID:
                try await j.signUp("j5@example.com")
                let fund = try await j.latch(
                    ["fund-password", "set", "--fund-password-stdin"], input: Journey.fundPassword)
                let enable = try await j.latch(["biometrics", "enable", "--sensor", "touch-id", "--simulate", "match"])
                try #require(fund.status == 0 && enable.status == 0, "\(fund)\n\(enable)")
                name = "Touch ID"
                // Three touches end the first prompt with −1; a touch and Cancel end the second; the fifth
                // consecutive failed touch locks Touch ID (−8) in the third.
                steps = "fail,fail,fail,fail,cancel,fail"
            }

            let verify = try await j.latch(
                [
                    "verify", "withdrawal", "amount=100.00", "currency=USDT", "address=TXj5", "--simulate", steps,
                    "--fund-password-stdin"
                ],
                input: Journey.fundPassword)

            #expect(verify.status == 0, "\(verify)")
            #expect(
                verify.showsInOrder([
                    j.text("第1/3次尝试失败", "Attempt 1 of 3 failed."), j.text("剩余2次尝试机会", "2 attempts left."),
                    j.text("[再试一次]", "[Try Again]"),
                    j.text("第2/3次尝试失败", "Attempt 2 of 3 failed."),
                    j.text("剩余1次尝试机会，之后将使用密码验证", "1 attempt left, then you will verify with your password."),
                    j.text(
                        "\(name)验证失败次数过多，请使用密码验证", "Too many failed \(name) attempts. Please verify with your password."
                    ),
                    j.text("验证成功", "Verified."),
                    j.text("（验证方式：资金密码）", "(verified by fund password)")
                ]), "\(verify)")
            #expect(!verify.output.contains(j.text("第3/3次尝试失败", "Attempt 3 of 3 failed.")), "\(verify)")
            let events = try await j.server.securityEventTypes(home: j.home())
            #expect(events.filter { $0 == "verification_redeemed" }.count == 1, "\(events)")
        }
    }

    // MARK: J6 使用其他方式验证 → 2FA code

    @Test("J6 A5 使用其他方式验证 leads to the 2FA code, which passes (zh-Hans)")
    func A5_otherMethodThen2FACodeInChinese() async throws { try await J6_A5_otherMethodThen2FACode(.zhHans) }

    @Test("J6 A5 使用其他方式验证 leads to the 2FA code, which passes (en)")
    func A5_otherMethodThen2FACodeInEnglish() async throws { try await J6_A5_otherMethodThen2FACode(.en) }

    private func J6_A5_otherMethodThen2FACode(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUpWithFaceID("j6@example.com")
            // 2FA on: the CLI shows the secret, the "authenticator" (LatchCore's TOTP) computes the code.
            let enabling = try j.start(["2fa", "enable"])
            let shown = try await enabling.waitForOutput(containing: "otpauth://")
            let secret = try #require(Self.secret(in: shown), "\(shown)")
            let totp = TOTP(secret: secret)
            enabling.send(totp.code(at: Date()))
            let enabled = await enabling.finish()
            try #require(enabled.status == 0, "\(enabled)")
            #expect(enabled.output.contains(j.text("已开启两步验证", "Two-factor authentication is on.")), "\(enabled)")

            // Each time step counts once: the verification uses the next one.
            let verify = try await j.latch(
                [
                    "verify", "withdrawal", "amount=20.00", "currency=USDT", "address=TXj6", "--simulate",
                    "other-method",
                    "--code", totp.code(at: Date().addingTimeInterval(30))
                ])

            #expect(verify.status == 0, "\(verify)")
            #expect(
                verify.showsInOrder([
                    "【Face ID】", j.text("→ 使用其他方式验证", "→ another method"),
                    j.text("【2FA验证】", "【Two-Factor Authentication】"),
                    j.text("请输入身份验证器中的6位验证码", "Enter the 6-digit code from your authenticator app."),
                    j.text("验证成功", "Verified."), j.text("（验证方式：两步验证码）", "(verified by 2FA code)")
                ]), "\(verify)")
        }
    }

    // MARK: J7 cancel

    @Test("J7 A4 cancel exits 3 and the withdrawal is not executed (zh-Hans)")
    func A4_cancelDoesNotExecuteInChinese() async throws { try await J7_A4_cancelDoesNotExecute(.zhHans) }

    @Test("J7 A4 cancel exits 3 and the withdrawal is not executed (en)")
    func A4_cancelDoesNotExecuteInEnglish() async throws { try await J7_A4_cancelDoesNotExecute(.en) }

    private func J7_A4_cancelDoesNotExecute(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUpWithFaceID("j7@example.com")

            let verify = try await j.latch(
                ["verify", "withdrawal", "amount=100.00", "currency=USDT", "address=TXj7", "--simulate", "cancel"])

            #expect(verify.status == 3, "\(verify)")
            #expect(verify.output.contains(j.text("已取消验证", "Verification cancelled.")), "\(verify)")
            #expect(!verify.output.contains(j.text("已确认并执行", "Confirmed and executed")), "\(verify)")
            // Redeem was never called: no verification was even passed.
            let events = try await j.server.securityEventTypes(home: j.home())
            #expect(!events.contains("verification_redeemed"), "\(events)")
            #expect(!events.contains("step_up_passed"), "\(events)")
        }
    }

    // MARK: J8 two devices, sign out the other

    @Test("J8 C8 C11 two devices listed; sign out the other, whose next command says the session expired (zh-Hans)")
    func C8_signOutOtherDeviceInChinese() async throws { try await J8_C8_signOutOtherDevice(.zhHans) }

    @Test("J8 C8 C11 two devices listed; sign out the other, whose next command says the session expired (en)")
    func C8_signOutOtherDeviceInEnglish() async throws { try await J8_C8_signOutOtherDevice(.en) }

    private func J8_C8_signOutOtherDevice(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUp("j8@example.com", on: "laptop")
            let login = try await j.latch(
                ["login", "j8@example.com", "--password-stdin", "--code-from-outbox"], on: "phone",
                input: Journey.password)
            try #require(login.status == 0, "\(login)")
            #expect(login.output.contains(j.text("检测到新设备登录", "A sign-in from a new device")), "\(login)")

            let table = try await j.latch(["sessions"], on: "laptop")
            let listed = try await j.latch(["sessions", "--json"], on: "phone")
            let revoke = try await j.latch(["sessions", "revoke", "--others"], on: "phone")
            let expired = try await j.latch(["whoami"], on: "laptop")
            let stillIn = try await j.latch(["whoami"], on: "phone")

            #expect(table.status == 0, "\(table)")
            let rows = table.output.split(separator: "\n")
            #expect(rows.count == 3, "\(table)")
            #expect(rows.filter { $0.hasPrefix("*") }.count == 1, "\(table)")
            #expect(table.output.contains(j.text("(本机)", "(this device)")), "\(table)")
            let sessions = try JSONDecoder().decode([[String: JSONValue]].self, from: Data(listed.output.utf8))
            #expect(sessions.count == 2)
            #expect(sessions.filter { $0["current"] == .bool(true) }.count == 1)
            // Issue 31 §3: both CLI sessions are bound to their home's software DPoP key (a 0600 file).
            #expect(sessions.allSatisfy { $0["bound"] == .bool(true) }, "\(listed)")
            #expect(rows.dropFirst().allSatisfy { $0.contains("DPoP") }, "\(table)")
            let keyFile = j.home("phone").appendingPathComponent("dpop-key").path
            let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(keyFile)")
            // The laptop's session was ended by the phone: its key went with it (issue 31 §3).
            #expect(!FileManager.default.fileExists(atPath: j.home("laptop").appendingPathComponent("dpop-key").path))
            #expect(
                revoke.status == 0 && revoke.output.contains(j.text("已退出所有其他设备", "Signed out every other device.")),
                "\(revoke)")
            #expect(expired.status == 1, "\(expired)")
            #expect(
                expired.errors.trimmingCharacters(in: .whitespacesAndNewlines)
                    == LatchErrorCode.sessionExpired.message(in: language), "\(expired)")
            #expect(stillIn.status == 0, "\(stillIn)")
        }
    }

    /// The base32 secret of the `otpauth://` URI in `output`.
    static func secret(in output: String) -> [UInt8]? {
        guard let range = output.range(of: "secret=") else { return nil }
        let encoded = output[range.upperBound...].prefix { $0.isLetter || $0.isNumber }
        return Base32.decode(String(encoded))
    }
}

/// Enough of JSON to check `--json` output.
enum JSONValue: Decodable, Equatable {
    case string(String), number(Double), bool(Bool), null, array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
