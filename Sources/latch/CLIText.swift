import Foundation
import LatchClient
import LatchCore

/// The CLI's own sentences in zh-Hans and English. The verification page's texts, the server's
/// messages and the biometric notices come from the SDK and the server, already in the language.
struct CLIText: Sendable {
    let language: LatchLanguage
    /// The server's URL, named when it cannot be reached.
    let server: String

    // MARK: Errors

    var serverUnreachable: String {
        language.pick(
            "无法连接到服务器 \(server)，请确认 latchd 正在运行后重试",
            "Cannot reach the server at \(server). Is latchd running? Please try again.")
    }
    var notSignedIn: String {
        language.pick("尚未登录，请先运行 latch login EMAIL", "Not signed in. Run `latch login EMAIL` first.")
    }
    func vaultUnavailable(_ path: String) -> String {
        language.pick("无法读写 \(path) 中的登录信息", "Cannot read or write the saved session in \(path).")
    }
    func unexpectedAnswer(_ status: Int) -> String {
        language.pick("服务器返回了无法识别的响应（HTTP \(status)）", "The server sent an answer latch cannot read (HTTP \(status)).")
    }
    func unexpectedError(_ description: String) -> String {
        language.pick("出错了：\(description)", "Something went wrong: \(description)")
    }
    var accountDisabled: String {
        language.pick(
            "该账号已被管理员停用，无法登录；如需恢复请联系客服",
            "This account was disabled by an administrator and cannot sign in. Contact support to have it enabled again."
        )
    }
    /// ACCOUNT_FROZEN (issue 19 §3): the server's message, and how to recover here.
    func accountFrozen(_ message: String) -> String {
        message
            + language.pick(
                "（运行 latch password reset EMAIL 以解冻）", " (Run `latch password reset EMAIL` to unfreeze it.)")
    }
    func lockedUntil(_ date: Date) -> String {
        language.pick("，解锁时间 \(Self.time(date))", " Unlocks at \(Self.time(date)).")
    }
    var noAnswerLeft: String {
        language.pick(
            "没有可用的回答（请使用 --simulate、--code 或 --fund-password-stdin，或在终端中运行）",
            "No answer left for this screen (use --simulate, --code or --fund-password-stdin, or run it in a terminal)."
        )
    }

    // MARK: Progress

    var connecting: String { language.pick("正在连接服务器…", "Contacting the server…") }
    var biometricsOfferLater: String {
        language.pick(
            "未开启；之后可运行 latch biometrics enable 开启", "Not turned on; run `latch biometrics enable` later to turn it on.")
    }

    // MARK: Simulated sensor

    func simulatedSensor(_ kind: BiometryKind) -> String {
        language.pick("［模拟 \(kind.displayName)］", "[simulated \(kind.displayName)]")
    }
    var sensorQuestion: String {
        language.pick(
            "[m]匹配  [n]不匹配  [t]再次尝试  [c]取消  [f]备用按钮  [o]其他方式 > ",
            "[m]atch  [n]o match  [t]ry again  [c]ancel  [f]allback  [o]ther method > ")
    }
    var simulatedPasscode: String { language.pick("［模拟 设备密码］", "[simulated passcode]") }
    var passcodeQuestion: String { language.pick("[p]输入设备密码  [c]取消 > ", "[p]asscode entered  [c]ancel > ") }
    func answerName(_ answer: SimulatedAnswer) -> String {
        switch answer {
        case .match: language.pick("匹配", "match")
        case .fail: language.pick("不匹配", "no match")
        case .cancel: language.pick("取消", "cancel")
        case .tryAgain: language.pick("再次尝试", "try again")
        case .fallback: language.pick("备用按钮", "fallback")
        case .passcode: language.pick("输入设备密码", "passcode entered")
        case .denyPermission: language.pick("拒绝权限", "permission refused")
        case .unavailable: language.pick("不可用", "unavailable")
        case .lockout: language.pick("已锁定", "locked out")
        case .otherMethod: language.pick("使用其他方式验证", "another method")
        case .password: language.pick("使用密码验证", "password")
        }
    }
    var settingsHint: String {
        language.pick(
            "（模拟设备）在设置中开启权限：latch biometrics sensor --grant-permission",
            "(simulated device) To allow it in Settings: latch biometrics sensor --grant-permission")
    }
    func secretKeys(_ screen: VerificationScreen) -> String {
        var keys = [language.pick("c 取消", "c cancel")]
        if screen.button(.otherMethod) != nil { keys.insert(language.pick("o 其他方式", "o other method"), at: 0) }
        if screen.button(.useBiometrics) != nil { keys.insert(language.pick("b 生物识别", "b biometrics"), at: 0) }
        if screen.button(.usePasskey) != nil { keys.insert(language.pick("p 通行密钥", "p passkey"), at: 0) }
        if screen.button(.sendCode) != nil { keys.insert(language.pick("r 重新发送", "r resend"), at: 0) }
        return language.pick("（", " (") + keys.joined(separator: language.pick("，", ", ")) + language.pick("）", ")")
    }

    /// Issue 30 §3: the resend wait is over.
    var resendReady: String { language.pick("现在可以重新发送验证码（r）", "You can resend the code now (r).") }

    // MARK: Accounts

    var passwordPrompt: String { language.pick("密码：", "Password: ") }
    var passwordAgain: String { language.pick("再次输入密码：", "Password again: ") }
    var passwordsDiffer: String { language.pick("两次输入的密码不一致", "The passwords do not match.") }
    var passwordMissing: String { language.pick("未读到密码", "No password was given.") }
    func strength(_ strength: PasswordStrength) -> String {
        let bar =
            String(repeating: "█", count: strength.rawValue) + String(repeating: "░", count: 4 - strength.rawValue)
        return language.pick("密码强度：", "Password strength: ") + bar + " " + strength.label(in: language)
    }
    func violation(_ violation: PasswordPolicy.Violation) -> String {
        switch violation {
        case .tooShort: language.pick("至少8个字符", "at least 8 characters")
        case .tooLong: language.pick("最多128个字符", "at most 128 characters")
        case .missingUppercase: language.pick("需要包含大写字母", "an upper-case letter")
        case .missingLowercase: language.pick("需要包含小写字母", "a lower-case letter")
        case .missingDigit: language.pick("需要包含数字", "a digit")
        case .common: language.pick("不能是常用密码", "not a commonly used password")
        }
    }
    func weakPassword(_ violations: [PasswordPolicy.Violation]) -> String {
        language.pick("密码不符合要求：", "The password needs ")
            + violations.map(violation).joined(separator: language.pick("；", ", "))
    }
    var termsQuestion: String {
        language.pick("是否同意《用户协议》和《隐私政策》？[y/N] ", "Do you accept the Terms of Service and the Privacy Policy? [y/N] ")
    }
    var termsDeclined: String {
        language.pick("未同意《用户协议》和《隐私政策》，已取消注册", "The terms were not accepted; sign-up cancelled.")
    }
    func invalidEmail(_ email: String) -> String { language.pick("邮箱格式不正确：\(email)", "Not an email address: \(email)") }
    var registering: String { language.pick("正在注册…", "Signing up…") }
    func codeSent(_ email: String) -> String {
        language.pick("验证码已发送至 \(email)", "A 6-digit code was sent to \(email).")
    }
    var emailCodePrompt: String { language.pick("邮件中的6位验证码：", "6-digit code from the email: ") }
    var codeMissing: String { language.pick("未输入验证码", "No code was entered.") }
    func codeFromOutbox(_ email: String) -> String {
        language.pick("（从开发发件箱读取 \(email) 的验证码）", "(reading the code for \(email) from the development outbox)")
    }
    var noOutbox: String {
        language.pick(
            "服务器没有开发发件箱（仅 LATCH_ENV=development 时提供）",
            "The server has no development outbox (only with LATCH_ENV=development).")
    }
    func noCodeInOutbox(_ email: String) -> String {
        language.pick("开发发件箱中没有发给 \(email) 的新验证码", "No new code for \(email) in the development outbox.")
    }
    func signedUp(_ user: UserInfo) -> String {
        language.pick("注册成功，已登录：\(name(user))", "Signed up and signed in as \(name(user)).")
    }
    func signedIn(_ user: UserInfo) -> String { signedIn(as: name(user)) }
    func signedIn(as name: String) -> String { language.pick("已登录：\(name)", "Signed in as \(name).") }
    func signedIn(_ user: UserInfo, with kind: BiometryKind) -> String {
        language.pick(
            "已通过\(kind.chineseSignInName)：\(name(user))", "Signed in with \(kind.displayName) as \(name(user)).")
    }
    var signingIn: String { language.pick("正在登录…", "Signing in…") }
    func unusualSignIn(_ method: SignInChallenge.Method) -> String {
        switch method {
        case .totp:
            language.pick(
                "检测到新设备登录，请输入身份验证器中的验证码", "A sign-in from a new device: enter the code from your authenticator app.")
        case .email, .other:
            language.pick("检测到新设备登录，验证码已发送到你的邮箱", "A sign-in from a new device: a code was sent to your email.")
        }
    }
    var codePrompt: String { language.pick("6位验证码：", "6-digit code: ") }
    var signedOut: String { language.pick("已退出登录", "Signed out.") }
    var wasNotSignedIn: String { language.pick("当前未登录", "Not signed in.") }
    func name(_ user: UserInfo) -> String {
        user.email ?? user.identities?.first { $0.signInProvider == .phone }?.identifier ?? user.nickname ?? user.id
    }
    var biometricLoginNeedsNoEmail: String { language.pick("--biometric 不需要 EMAIL", "--biometric takes no EMAIL") }
    var loginNeedsEmail: String {
        language.pick(
            "请提供 EMAIL，或使用 --phone、--biometric 或 --passkey", "Give an EMAIL, or use --phone, --biometric or --passkey")
    }
    var emailOrPhone: String { language.pick("EMAIL 与 --phone 只能选一个", "Give an EMAIL or --phone, not both") }
    var sendingCode: String { language.pick("正在发送验证码…", "Sending the code…") }
    func codeTexted(_ phone: String) -> String {
        language.pick("验证码已发送至 \(phone)", "A 6-digit code was texted to \(phone).")
    }
    var biometricLoginNotEnabled: String {
        language.pick(
            "此设备未开启\(anySignInName)，请使用密码登录：latch login EMAIL",
            "Biometric sign-in is not enabled on this device. Sign in with your password: latch login EMAIL")
    }

    // MARK: Who am I

    var emailLabel: String { language.pick("邮箱", "Email") }
    var nicknameLabel: String { language.pick("昵称", "Nickname") }
    var userIDLabel: String { language.pick("用户ID", "User ID") }
    var verifiedLabel: String { language.pick("邮箱已验证", "Email verified") }
    var createdLabel: String { language.pick("注册时间", "Signed up") }
    var yes: String { language.pick("是", "yes") }
    /// "label：value" / "label: value", the label in bold when colour is on.
    func field(_ label: String, _ value: String, on terminal: Terminal) -> String {
        terminal.paint(label + language.pick("：", ":"), .bold) + language.pick("", " ") + value
    }
    var no: String { language.pick("否", "no") }

    // MARK: Sessions

    var sessionHeaders: [String] {
        [
            language.pick("当前", "CURRENT"), "ID", language.pick("设备", "DEVICE"), language.pick("平台", "PLATFORM"),
            language.pick("密钥绑定", "BOUND"), language.pick("最近活动", "LAST ACTIVE")
        ]
    }
    var thisDevice: String { language.pick("本机", "this device") }
    func sessionRevoked(_ id: String) -> String { language.pick("已退出设备 \(id)", "Signed out session \(id).") }
    var otherSessionsRevoked: String { language.pick("已退出所有其他设备", "Signed out every other device.") }
    var revokeNeedsTarget: String { language.pick("请提供会话 ID，或使用 --others", "Give a session ID, or use --others") }
    var revokeTakesOneTarget: String {
        language.pick("会话 ID 与 --others 只能二选一", "Give a session ID or --others, not both")
    }

    // MARK: Biometrics

    func biometricsEnabled(_ kind: BiometryKind) -> String {
        language.pick("已开启\(kind.chineseSignInName)与验证", "\(kind.displayName) sign-in and verification are on.")
    }
    var biometricsDisabled: String { language.pick("已关闭\(anySignInName)", "Biometric sign-in is off.") }
    var biometricsDisabledLocally: String {
        language.pick(
            "已在本机关闭\(anySignInName)（服务器暂时无法连接，稍后会自动解除绑定）",
            "Biometric sign-in is off on this device (the server will be told when it can be reached).")
    }
    var biometricsWereOff: String {
        language.pick("此设备未开启\(anySignInName)", "Biometric sign-in was not on for this device.")
    }
    func statusEnabled(_ binding: BiometricBinding) -> String {
        language.pick(
            "\(binding.biometry.chineseSignInName)：已开启（\(binding.biometry.displayName)，凭据 \(binding.credentialID)）",
            "Biometric sign-in: on (\(binding.biometry.displayName), credential \(binding.credentialID))")
    }
    var statusDisabled: String { language.pick("\(anySignInName)：未开启", "Biometric sign-in: off") }
    /// Biometric sign-in's name when the sensor is not known here: "面容或指纹登录" (the SDK's one name, issue 28 §3).
    private var anySignInName: String { BiometricStrings.signInName(nil, in: .zhHans) }
    func sensorLine(_ state: SimulatedSensorState) -> String {
        let condition: String =
            switch state.unavailable {
            case nil: language.pick("可用", "available")
            case .lockedOut?: language.pick("已锁定（需输入设备密码）", "locked out (needs the passcode)")
            case .notAvailable?: language.pick("不可用（权限已关闭）", "unavailable (permission off)")
            case .notEnrolled?: language.pick("未录入", "not enrolled")
            case .passcodeNotSet?: language.pick("未设置系统密码", "no device passcode")
            case .notSupported?: language.pick("不支持", "not supported")
            }
        let failures =
            state.consecutiveFailures == 0
            ? ""
            : language.pick("，连续失败\(state.consecutiveFailures)次", ", \(state.consecutiveFailures) failures in a row")
        return language.pick(
            "模拟传感器：\(state.kind.displayName)，\(condition)\(failures)",
            "Simulated sensor: \(state.kind.displayName), \(condition)\(failures)")
    }

    // MARK: Second factors

    var totpSecretLabel: String { language.pick("密钥", "Secret") }
    var totpURILabel: String { language.pick("otpauth 链接", "otpauth URI") }
    var totpScan: String {
        language.pick(
            "请在身份验证器中添加此账户（扫描二维码或输入密钥），然后输入它显示的6位验证码。",
            "Add the account to your authenticator app (scan the QR code or type the secret), then enter the 6-digit code it shows."
        )
    }
    var recoveryCodesHeading: String {
        language.pick(
            "恢复码（仅显示这一次，请妥善保存；每个只能使用一次）：", "Recovery codes (shown only this once; keep them safe, each works once):")
    }
    var totpEnabled: String { language.pick("已开启两步验证", "Two-factor authentication is on.") }
    var totpDisabled: String { language.pick("已关闭两步验证", "Two-factor authentication is off.") }
    var fundPasswordPrompt: String { language.pick("新的6位资金密码：", "New 6-digit fund password: ") }
    var fundPasswordAgain: String { language.pick("再次输入资金密码：", "Fund password again: ") }
    var fundPasswordsDiffer: String { language.pick("两次输入的资金密码不一致", "The fund passwords do not match.") }
    func fundPasswordViolation(_ violation: FundPasswordPolicy.Violation) -> String {
        switch violation {
        case .notSixDigits: language.pick("资金密码为6位数字", "The fund password is 6 digits.")
        case .allSame: language.pick("资金密码不能是相同的数字", "The fund password cannot be one digit repeated.")
        case .straightRun: language.pick("资金密码不能是连续的数字", "The fund password cannot be a straight run like 123456.")
        case .sameAsLoginPassword:
            language.pick("资金密码不能与登录密码相同", "The fund password must differ from the login password.")
        }
    }
    var fundPasswordSet: String { language.pick("资金密码已设置", "The fund password is set.") }

    // MARK: Passkeys

    var passkeyHeaders: [String] {
        [
            "ID", language.pick("名称", "NAME"), language.pick("创建时间", "CREATED"), language.pick("最近使用", "LAST USED"),
            language.pick("已备份", "BACKED UP"),
            language.pick("证明", "ATTESTATION")
        ]
    }
    func passkeyAdded(_ created: PasskeyCreated) -> String {
        language.pick("已添加通行密钥「\(created.name)」（\(created.id)）", "Passkey “\(created.name)” added (\(created.id)).")
    }
    var passkeyUnverifiedAttestation: String {
        language.pick(
            "注意：服务器无法核实此认证器的证明，仅作记录",
            "Note: the server could not check this authenticator's attestation; it is stored as unverified.")
    }
    func passkeyRemoved(_ id: String) -> String { language.pick("已删除通行密钥 \(id)", "Passkey \(id) removed.") }
    func passkeyRenamed(_ passkey: PasskeyInfo) -> String {
        language.pick("已将通行密钥重命名为「\(passkey.name)」", "Passkey renamed to “\(passkey.name)”.")
    }
    var noPasskeys: String { language.pick("尚未添加通行密钥：latch passkey add", "No passkeys yet: latch passkey add") }
    var passkeyAlreadyRegistered: String {
        language.pick("此设备的通行密钥已添加到该账号", "This device's passkey is already on the account.")
    }
    var passkeyLimitReached: String { language.pick("通行密钥数量已达上限", "The account has as many passkeys as allowed.") }
    var passkeyNotFound: String {
        language.pick("找不到该通行密钥（latch passkey list 查看）", "No such passkey (see `latch passkey list`).")
    }
    var noPasskeyOnDevice: String {
        language.pick(
            "此设备没有该账号可用的通行密钥，请先登录并运行 latch passkey add",
            "This device has no passkey for the account. Sign in and run `latch passkey add` first.")
    }
    func passkeyRefused(_ message: String, reasons: [String]) -> String {
        reasons.isEmpty ? message : "\(message) (\(reasons.joined(separator: ", ")))"
    }
    var passkeyLoginTakesNoPhone: String {
        language.pick("--passkey 与 --phone、--biometric 不能同时使用", "--passkey does not go with --phone or --biometric")
    }
    func signedInWithPasskey(_ user: UserInfo) -> String {
        language.pick("已通过通行密钥登录：\(name(user))", "Signed in with a passkey as \(name(user)).")
    }

    // MARK: Verify

    func invalidParameter(_ argument: String) -> String {
        language.pick("参数应为 key=value：\(argument)", "A parameter must be key=value: \(argument)")
    }
    func confirmation(_ redeemed: RedeemedVerification, parameters: [String: String]) -> String {
        let details = parameters.keys.sorted().map { "\($0)=\(parameters[$0] ?? "")" }.joined(separator: " ")
        let method = methodName(redeemed.method.rawValue)
        let subject = details.isEmpty ? redeemed.action : "\(redeemed.action) \(details)"
        return language.pick(
            "已确认并执行：\(subject)（验证方式：\(method)）", "Confirmed and executed: \(subject) (verified by \(method))")
    }
    func methodName(_ method: String) -> String {
        switch method {
        case "biometric": language.pick("生物识别", "biometrics")
        case "totp": language.pick("两步验证码", "2FA code")
        case "fund_password": language.pick("资金密码", "fund password")
        case "recovery_code": language.pick("恢复码", "recovery code")
        case "passkey": language.pick("通行密钥", "passkey")
        default: method
        }
    }

    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
