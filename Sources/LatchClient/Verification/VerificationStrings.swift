import Foundation
import LatchCore

/// Every text of the verification page, in Simplified Chinese (the seed's wording, exactly) and
/// English (A10), chosen by `LatchLanguage`.
///
///     let strings = VerificationStrings(.zhHans)
///     strings.attemptFailed(1)  // "第1/3次尝试失败" / "Attempt 1 of 3 failed."
public struct VerificationStrings: Sendable, Equatable {
    /// The language of every text.
    public let language: LatchLanguage

    public init(_ language: LatchLanguage) {
        self.language = language
    }

    // MARK: Titles

    /// The biometric page title (A10): "Face ID", "Touch ID" (or "Optic ID"), the same in both languages.
    public func title(for sensor: BiometryKind) -> String {
        sensor.displayName
    }

    /// The title while no method is chosen yet.
    public var verificationTitle: String {
        language.pick("身份验证", "Verify It’s You")
    }

    /// The 2FA page title.
    public var oneTimeCodeTitle: String {
        language.pick("2FA验证", "Two-Factor Authentication")
    }

    /// The fund-password page title.
    public var fundPasswordTitle: String {
        language.pick("资金密码验证", "Fund Password")
    }

    // MARK: Biometric messages (seed FR-023-03, FR-023-06)

    /// The biometric page's line (seed §2.2: "使用面容ID进行验证" / "Use Face ID to verify.").
    public func biometricMessage(for sensor: BiometryKind) -> String {
        switch (sensor, language) {
        case (.faceID, .zhHans): "使用面容ID进行验证"
        case (.touchID, .zhHans): "使用触控ID进行验证"
        case (.opticID, .zhHans): "使用Optic ID进行验证"
        case (.faceID, .en): "Use Face ID to verify."
        case (.touchID, .en): "Use Touch ID to verify."
        case (.opticID, .en): "Use Optic ID to verify."
        }
    }

    /// After failure `number` of 3 (A3): "第1/3次尝试失败" / "Attempt 1 of 3 failed.".
    public func attemptFailed(_ number: Int) -> String {
        language.pick(
            "第\(number)/\(VerificationFlow.maximumBiometricFailures)次尝试失败",
            "Attempt \(number) of \(VerificationFlow.maximumBiometricFailures) failed.")
    }

    /// Attempts left (A3): "剩余2次尝试机会" / "2 attempts left.".
    public func attemptsRemaining(_ count: Int) -> String {
        language.pick("剩余\(count)次尝试机会", count == 1 ? "1 attempt left." : "\(count) attempts left.")
    }

    /// The last biometric attempt (A3): "剩余1次尝试机会，之后将使用密码验证" /
    /// "1 attempt left, then you will verify with your password.". `then` is where the
    /// flow goes after it (`nil`: nowhere).
    public func lastBiometricAttempt(then target: VerificationMethodKind?) -> String {
        switch target {
        case .fundPassword:
            language.pick("剩余1次尝试机会，之后将使用密码验证", "1 attempt left, then you will verify with your password.")
        case .totp, .biometric, .passkey, .emailCode:
            language.pick("剩余1次尝试机会，之后将使用其他方式验证", "1 attempt left, then you will verify another way.")
        case nil: attemptsRemaining(1)
        }
    }

    /// After the third failure (A3): "Face ID验证失败次数过多，请使用密码验证" /
    /// "Too many failed Face ID attempts. Please verify with your password.".
    public func tooManyFailures(_ sensor: BiometryKind, then target: VerificationMethodKind?) -> String {
        let name = title(for: sensor)
        return language.pick("\(name)验证失败次数过多", "Too many failed \(name) attempts.") + fallbackAdvice(target)
    }

    /// An interrupted prompt (A8); not a failure.
    public func interrupted(_ sensor: BiometryKind) -> String {
        let name = title(for: sensor)
        return language.pick("\(name)验证已中断，请再试一次", "\(name) was interrupted. Please try again.")
    }

    /// A prompt that failed for a reason the user cannot fix (−10, an unknown `LAError` code); not
    /// counted: "Face ID验证失败，请再试一次" / "Face ID verification failed. Please try again."
    public func unexpectedFailure(_ sensor: BiometryKind) -> String {
        let name = title(for: sensor)
        return language.pick("\(name)验证失败，请再试一次", "\(name) verification failed. Please try again.")
    }

    /// Before the first Face ID use (A6): "需要使用相机进行面容识别验证" / "Face ID verification needs access to the camera.".
    public var permissionExplanation: String {
        language.pick("需要使用相机进行面容识别验证", "Face ID verification needs access to the camera.")
    }

    /// The Face ID permission is off (A6): "无法使用Face ID，请在设置中开启相机权限" /
    /// "Face ID is unavailable. Please allow camera access in Settings.".
    public var permissionDenied: String {
        language.pick("无法使用Face ID，请在设置中开启相机权限", "Face ID is unavailable. Please allow camera access in Settings.")
    }

    /// Why biometrics cannot be used (A7), with where to go instead.
    public func biometricsUnavailable(
        _ reason: BiometricSetAsideReason, sensor: BiometryKind?, then target: VerificationMethodKind?
    ) -> String {
        let name = sensor.map(title(for:)) ?? language.pick("生物识别", "Biometrics")
        let problem: String
        switch reason {
        case .unavailable(.lockedOut): problem = language.pick("\(name)已被锁定", "\(name) is locked.")
        case .unavailable(.notEnrolled): problem = language.pick("未设置\(name)", "\(name) is not set up.")
        case .unavailable(.passcodeNotSet):
            problem = language.pick("未设置设备密码，无法使用\(name)", "\(name) needs a device passcode.")
        case .unavailable(.notAvailable): problem = language.pick("\(name)不可用", "\(name) is unavailable.")
        case .unavailable(.notSupported):
            problem = language.pick("此设备不支持生物识别", "This device does not support biometrics.")
        case .rejected: problem = language.pick("\(name)验证未通过", "\(name) verification was not accepted.")
        case .enrollmentChanged: problem = language.pick("\(name)信息已变更", "Your \(name) settings have changed.")
        }
        return problem + fallbackAdvice(target)
    }

    /// While the server checks the answer.
    public var verifying: String {
        language.pick("正在验证…", "Verifying…")
    }

    /// While the verification is opened.
    public var preparing: String {
        language.pick("正在准备验证…", "Preparing verification…")
    }

    // MARK: Code and fund-password pages

    /// The 2FA page's line: "请输入身份验证器中的6位验证码" / "Enter the 6-digit code from your authenticator app.".
    public var oneTimeCodePrompt: String {
        language.pick("请输入身份验证器中的6位验证码", "Enter the 6-digit code from your authenticator app.")
    }

    /// The fund-password page's line: "请输入6位资金密码" / "Enter your 6-digit fund password.".
    public var fundPasswordPrompt: String {
        language.pick("请输入6位资金密码", "Enter your 6-digit fund password.")
    }

    /// AUTH_003 for a code: the API's own text ("验证码错误" / "The verification code is wrong or has expired.").
    public var wrongCode: String {
        LatchErrorCode.wrongCode.message(in: language)
    }

    /// AUTH_003 for the fund password: "资金密码错误" / "The fund password is wrong.".
    public var wrongFundPassword: String {
        language.pick("资金密码错误", "The fund password is wrong.")
    }

    /// AUTH_002 for one method.
    public var methodLocked: String {
        language.pick("该验证方式已被锁定", "This verification method is locked.")
    }

    /// When a locked method opens again; `time` is "HH:mm".
    public func lockedUntil(_ time: String) -> String {
        language.pick("请于\(time)后重试，或使用其他方式验证", "Try again after \(time), or use another method.")
    }

    /// What was typed cannot be a code: "请输入6位验证码或恢复码" / "Enter the 6-digit code or a recovery code.".
    public var invalidCodeFormat: String {
        language.pick("请输入6位验证码或恢复码", "Enter the 6-digit code or a recovery code.")
    }

    /// What was typed cannot be a fund password: "资金密码为6位数字" / "The fund password is 6 digits.".
    public var invalidFundPasswordFormat: String {
        language.pick("资金密码为6位数字", "The fund password is 6 digits.")
    }

    /// No answer from the server (C11: suggests a retry): "网络连接失败，请重试" /
    /// "The network connection failed. Please try again.".
    public var networkFailure: String {
        language.pick("网络连接失败，请重试", "The network connection failed. Please try again.")
    }

    /// An unexpected server answer: "验证失败，请稍后重试" / "Verification failed. Please try again later.".
    public var serverFailure: String {
        language.pick("验证失败，请稍后重试", "Verification failed. Please try again later.")
    }

    /// The verification could not be opened: "无法开始验证，请重试" / "Verification could not start. Please try again.".
    public var startFailure: String {
        language.pick("无法开始验证，请重试", "Verification could not start. Please try again.")
    }

    // MARK: Expired and empty pages

    /// A8 time-out: "验证已超时，请重新验证" / "Verification timed out. Please start again.".
    public var timedOut: String {
        language.pick("验证已超时，请重新验证", "Verification timed out. Please start again.")
    }

    /// The server allows no more attempts on this verification: "尝试次数过多，请重新验证" /
    /// "Too many attempts. Please start again.".
    public var attemptsUsedUp: String {
        language.pick("尝试次数过多，请重新验证", "Too many attempts. Please start again.")
    }

    /// The API's VERIFICATION_INVALID text.
    public var verificationInvalid: String {
        LatchErrorCode.verificationInvalid.message(in: language)
    }

    /// Nothing can verify the user: "暂无可用的验证方式" / "No verification method is available.".
    public var noMethodAvailable: String {
        language.pick("暂无可用的验证方式", "No verification method is available.")
    }

    /// Biometrics are out and nothing else is offered: "暂无其他可用的验证方式" / "No other verification method is available.".
    public var noOtherMethodAvailable: String {
        language.pick("暂无其他可用的验证方式", "No other verification method is available.")
    }

    // MARK: Endings (announced as the page closes)

    /// Announced as the page closes after success (A2): "验证成功" / "Verified.".
    public var succeeded: String {
        language.pick("验证成功", "Verified.")
    }

    /// Announced as the page closes after cancel (A4): "已取消验证" / "Verification cancelled.".
    public var cancelled: String {
        language.pick("已取消验证", "Verification cancelled.")
    }

    /// Announced as the page closes on a failure: the API's own text.
    public func failed(_ failure: VerificationFailure) -> String {
        switch failure {
        case .sessionExpired: LatchErrorCode.sessionExpired.message(in: language)
        case .noVerificationMethod: LatchErrorCode.noVerificationMethod.message(in: language)
        }
    }

    // MARK: Buttons

    /// "再试一次" / "Try Again" (A3).
    public var retry: String { language.pick("再试一次", "Try Again") }
    /// "重新验证" / "Start Again": opens a new verification (A8).
    public var restart: String { language.pick("重新验证", "Start Again") }
    /// "继续" / "Continue" on the permission explanation (A6).
    public var `continue`: String { language.pick("继续", "Continue") }
    /// "使用其他方式验证" / "Use Another Method" (A5).
    public var otherMethod: String { language.pick("使用其他方式验证", "Use Another Method") }
    /// "使用密码验证" / "Use Password" (A6, seed §8).
    public var usePassword: String { language.pick("使用密码验证", "Use Password") }
    /// "前往设置" / "Open Settings" on the denial page (A6).
    public var openSettings: String { language.pick("前往设置", "Open Settings") }
    /// "确认" / "Confirm" on the code pages.
    public var submit: String { language.pick("确认", "Confirm") }
    /// "取消" / "Cancel" (A4).
    public var cancel: String { language.pick("取消", "Cancel") }

    /// "使用Face ID验证" / "Use Face ID" or "使用Touch ID验证" / "Use Touch ID" on the code pages.
    public func useBiometrics(_ sensor: BiometryKind) -> String {
        let name = title(for: sensor)
        return language.pick("使用\(name)验证", "Use \(name)")
    }

    // MARK: Accessibility hints (what a control does)

    /// What "再试一次" / "Try Again" does.
    public func retryHint(_ sensor: BiometryKind) -> String {
        let name = title(for: sensor)
        return language.pick("再次进行\(name)验证", "Tries \(name) again.")
    }

    /// What "重新验证" / "Start Again" or "再试一次" / "Try Again" after a failed start does.
    public var restartHint: String {
        language.pick("为本次操作重新发起验证", "Starts a new verification for this action.")
    }

    /// What "继续" / "Continue" does.
    public func continueHint(_ sensor: BiometryKind) -> String {
        let name = title(for: sensor)
        return language.pick("开始\(name)验证，系统可能会请求权限", "Starts \(name). The system may ask for permission.")
    }

    /// Where "使用其他方式验证" / "Use Another Method" leads.
    public func otherMethodHint(_ target: VerificationMethodKind) -> String {
        switch target {
        case .totp: language.pick("改用身份验证器中的2FA验证码完成验证", "Verifies with a code from your authenticator app instead.")
        case .fundPassword: language.pick("改用资金密码完成验证", "Verifies with your fund password instead.")
        case .biometric: language.pick("改用生物识别完成验证", "Verifies with biometrics instead.")
        case .passkey: language.pick("改用通行密钥完成验证", "Verifies with a passkey instead.")
        case .emailCode: language.pick("改用邮箱验证码完成验证", "Verifies with a code we email you instead.")
        }
    }

    /// "输入设备密码解锁Face ID" / "Unlock Face ID with Passcode" on the password page after a lockout (B2 −8).
    public func unlockWithPasscode(_ sensor: BiometryKind) -> String {
        let name = title(for: sensor)
        return language.pick("输入设备密码解锁\(name)", "Unlock \(name) with Passcode")
    }

    /// What "输入设备密码解锁Face ID" / "Unlock Face ID with Passcode" does.
    public func unlockWithPasscodeHint(_ sensor: BiometryKind) -> String {
        let name = title(for: sensor)
        return language.pick("输入设备密码后可重新使用\(name)验证", "Enter your device passcode to use \(name) again.")
    }

    /// The device-passcode prompt's reason line.
    public func passcodeReason(_ sensor: BiometryKind) -> String {
        let name = title(for: sensor)
        return language.pick("输入设备密码以解锁\(name)", "Enter your passcode to unlock \(name).")
    }

    /// What "前往设置" / "Open Settings" does on the password page, by why biometrics cannot be used (−5, −6, −7).
    public func openSettingsHint(for reason: BiometricSetAsideReason, sensor: BiometryKind?) -> String {
        let name = sensor.map(title(for:)) ?? language.pick("生物识别", "biometrics")
        switch reason {
        case .unavailable(.notEnrolled): return language.pick("打开系统设置，录入\(name)", "Opens Settings to set up \(name).")
        case .unavailable(.passcodeNotSet):
            return language.pick("打开系统设置，设置设备密码", "Opens Settings to set a device passcode.")
        case .unavailable(.notAvailable), .unavailable(.lockedOut), .unavailable(.notSupported), .rejected,
            .enrollmentChanged:
            return language.pick("打开系统设置，开启\(name)", "Opens Settings to turn on \(name).")
        }
    }

    /// The explicit description of "使用密码验证" / "Use Password" (A9, seed §9).
    public func usePasswordHint(_ sensor: BiometryKind) -> String {
        let name = title(for: sensor)
        return language.pick(
            "不使用\(name)，改为输入6位资金密码完成验证",
            "Skips \(name) and verifies with your 6-digit fund password instead.")
    }

    /// What "使用Face ID验证" / "Use Face ID" does.
    public func useBiometricsHint(_ sensor: BiometryKind) -> String {
        let name = title(for: sensor)
        return language.pick("改用\(name)完成验证", "Verifies with \(name) instead.")
    }

    /// What "前往设置" / "Open Settings" does.
    public var openSettingsHint: String {
        language.pick("打开系统设置，开启相机权限以使用Face ID", "Opens Settings to allow camera access for Face ID.")
    }

    /// What "确认" / "Confirm" does.
    public func submitHint(_ method: VerificationMethodKind) -> String {
        switch method {
        case .fundPassword: language.pick("提交资金密码", "Submits the fund password.")
        case .totp, .biometric, .passkey, .emailCode: language.pick("提交验证码", "Submits the code.")
        }
    }

    /// What "取消" / "Cancel" does: the action is not carried out (A4).
    public var cancelHint: String {
        language.pick("关闭验证，操作不会执行", "Closes verification. The action will not be carried out.")
    }

    // MARK: Passkey (issue 13)

    /// The passkey page's title.
    public var passkeyTitle: String { language.pick("通行密钥", "Passkey") }
    /// The passkey page's main line.
    public var passkeyMessage: String { language.pick("使用通行密钥进行验证", "Verify with your passkey.") }
    /// While the system sheet is up.
    public var passkeyPrompt: String {
        language.pick("请在系统窗口中确认通行密钥", "Confirm with your passkey in the system window.")
    }
    /// "使用通行密钥验证".
    public var usePasskey: String { language.pick("使用通行密钥验证", "Verify with Passkey") }
    /// What "使用通行密钥验证" does.
    public var usePasskeyHint: String {
        language.pick("打开系统窗口，用此设备上的通行密钥完成验证", "Opens the system window to verify with a passkey on this device.")
    }
    /// The sheet was closed without a passkey.
    public var passkeyCancelled: String {
        language.pick("未使用通行密钥，可重试或使用其他方式验证", "No passkey was used. Try again or verify another way.")
    }
    /// The device could not use its passkey.
    public var passkeyFailed: String {
        language.pick("无法使用通行密钥，请重试或使用其他方式验证", "The passkey could not be used. Try again or verify another way.")
    }
    /// The server did not accept the assertion.
    public var passkeyRejected: String { language.pick("通行密钥验证未通过", "The passkey was not accepted.") }
    /// "使用密码验证" on the passkey page.
    public var usePasswordInsteadOfPasskeyHint: String {
        language.pick(
            "不使用通行密钥，改为输入6位资金密码完成验证", "Skips the passkey and verifies with your 6-digit fund password instead.")
    }

    // MARK: Fields and icons

    /// The 2FA field's label.
    public var oneTimeCodeLabel: String { language.pick("6位验证码", "6-digit code") }
    /// The 2FA field's placeholder.
    public var oneTimeCodePlaceholder: String { language.pick("请输入验证码", "Enter code") }
    /// The 2FA field's accessibility hint.
    public var oneTimeCodeHint: String {
        language.pick("输入身份验证器中的验证码，也可输入恢复码", "The code from your authenticator app, or a recovery code.")
    }
    /// The fund-password field's label.
    public var fundPasswordLabel: String { language.pick("资金密码", "Fund password") }
    /// The fund-password field's placeholder.
    public var fundPasswordPlaceholder: String { language.pick("请输入资金密码", "Enter fund password") }
    /// The fund-password field's accessibility hint.
    public var fundPasswordHint: String { language.pick("输入6位数字资金密码", "Your 6-digit fund password.") }

    /// What VoiceOver says for the page's picture.
    public func iconLabel(_ symbol: VerificationIcon.Symbol) -> String {
        switch symbol {
        case .faceID: language.pick("Face ID图标", "Face ID icon")
        case .touchID: language.pick("Touch ID图标", "Touch ID icon")
        case .opticID: language.pick("Optic ID图标", "Optic ID icon")
        case .oneTimeCode: language.pick("验证码图标", "Code icon")
        case .fundPassword: language.pick("资金密码图标", "Fund password icon")
        case .progress: language.pick("正在处理", "In progress")
        case .warning: language.pick("提示", "Notice")
        case .passkey: language.pick("通行密钥图标", "Passkey icon")
        case .hold: language.pick("暂停提示图标", "Pause icon")
        case .email: language.pick("邮件图标", "Email icon")
        case .factorPassed: language.pick("验证通过图标", "Passed icon")
        case .limit: language.pick("限额图标", "Limit icon")
        }
    }

    // MARK: Composition

    /// One announcement from a message and its detail line.
    public func announcement(_ message: String, _ detail: String?) -> String {
        guard let detail else { return message }
        return message + language.pick("，", " ") + detail
    }

    /// "HH:mm" of `date` in `timeZone` (the same digits in both languages).
    public func clockTime(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let hour = parts.hour ?? 0
        let minute = parts.minute ?? 0
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    private func fallbackAdvice(_ target: VerificationMethodKind?) -> String {
        switch target {
        case .fundPassword: language.pick("，请使用密码验证", " Please verify with your password.")
        case .totp, .biometric, .passkey, .emailCode: language.pick("，请使用其他方式验证", " Please verify another way.")
        case nil: ""
        }
    }
}
