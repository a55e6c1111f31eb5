/// Everything the verification page shows, decided by `VerificationFlow` and only rendered by the
/// view (`VerificationSheet` on Apple platforms, the CLI elsewhere).
///
/// Buttons are listed in focus order (VoiceOver and keyboard); each carries its own accessibility
/// label and hint, and `announcement` is what assistive technology says, politely, when this
/// screen replaces the previous one (A9).
public struct VerificationScreen: Sendable, Equatable {
    /// Which page this is.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Opening the verification on the server.
        case preparing
        /// The verification could not be opened; "再试一次" / "Try Again" tries again.
        case startFailed
        /// First Face ID use: why the permission is needed (A6).
        case permissionExplanation
        /// The Face ID permission is off (A6).
        case permissionDenied
        /// The system biometric prompt is up (A1).
        case biometric
        /// After a failed or interrupted biometric attempt: "再试一次" / "Try Again" (A3, A8).
        case biometricRetry
        /// Biometrics passed; the device's signature is being checked by the server.
        case biometricChecking
        /// 2FA code entry.
        case oneTimeCode
        /// Fund password entry.
        case fundPassword
        /// The verification timed out or was used up; "重新验证" / "Start Again" opens a new one (A8).
        case expired
        /// No method is left to try; only "取消" / "Cancel".
        case noMethodAvailable
        /// Passkey: the system sheet is up (busy), the assertion is being checked (busy), or the page
        /// waits for "使用通行密钥验证" after a cancelled or refused attempt.
        case passkey
        /// A security hold pauses the action (issue 19 §2): what is held, why, until when, a live
        /// countdown, and "关闭" / "Close" only.
        case securityHold
        /// A factor passed and the policy needs another (issue 30 §3): which passed, why, and "继续" / "Continue".
        case factorPassed
        /// The emailed code (issue 30 §3): "发送验证码" / "Send Code", then the code entry with "重新发送" /
        /// "Resend Code" after the server's wait.
        case emailCode
        /// A policy limit refuses the action (POLICY_LIMIT, issue 30 §3): what, the limit, what is left, and
        /// "关闭" / "Close" only.
        case policyLimit
        /// A new value of the action is locked (NEW_VALUE_LOCKED, issue 30 §3): what, why, until when, a live
        /// countdown, and "关闭" / "Close" only.
        case newValueLocked
    }

    /// How the message reads: plainly, or as a warning (failures, locks, unavailable biometrics).
    public enum Tone: String, Sendable, Equatable, CaseIterable {
        case regular
        case warning
    }

    /// Which page this is.
    public var kind: Kind
    /// The picture above the title, with its accessibility label.
    public var icon: VerificationIcon
    /// "Face ID" / "Touch ID" on biometric pages (A10); the method's name on the others.
    public var title: String
    /// What the user is confirming, as the caller described it (seed 000 §5.1 "操作描述 … 调用方传入",
    /// `VerificationContext.localizedReason`, e.g. "提现 100 USDT 至 TXabc…"), shown on the card under the
    /// title on every page; `nil` when the caller gave none.
    public var operationDescription: String?
    /// What the server's policy asks for this action, e.g. "需要两项验证。单笔提现超过10000 USDT" / "Two
    /// verifications are needed. …" (issue 30 §3); `nil` when one verification is enough.
    public var requirement: String?
    /// The main line, e.g. "第1/3次尝试失败" / "Attempt 1 of 3 failed." or "使用面容ID进行验证" / "Use Face ID to verify.".
    public var message: String
    /// A second line, e.g. "剩余2次尝试机会" / "2 attempts left.".
    public var detail: String?
    /// How the message and detail read.
    public var tone: Tone
    /// The text field, on the code and fund-password pages.
    public var input: VerificationInputField?
    /// The live countdown, on the hold page (issue 19 §2).
    public var countdown: VerificationCountdown?
    /// The buttons in focus order.
    public var buttons: [VerificationButton]
    /// A request is running: show progress.
    public var isBusy: Bool
    /// What to announce when this screen appears (A9: state changes and remaining attempts).
    public var announcement: VerificationAnnouncement

    public init(
        kind: Kind, icon: VerificationIcon, title: String, operationDescription: String? = nil,
        requirement: String? = nil, message: String,
        detail: String? = nil,
        tone: Tone = .regular, input: VerificationInputField? = nil, countdown: VerificationCountdown? = nil,
        buttons: [VerificationButton], isBusy: Bool = false, announcement: VerificationAnnouncement
    ) {
        self.kind = kind
        self.icon = icon
        self.title = title
        self.operationDescription = operationDescription
        self.requirement = requirement
        self.message = message
        self.detail = detail
        self.tone = tone
        self.input = input
        self.countdown = countdown
        self.buttons = buttons
        self.isBusy = isBusy
        self.announcement = announcement
    }

    /// The button with `id`, if this screen shows it.
    public func button(_ id: VerificationButton.ID) -> VerificationButton? {
        buttons.first { $0.id == id }
    }
}

/// The picture at the top of the page.
public struct VerificationIcon: Sendable, Equatable {
    /// What the picture shows.
    public enum Symbol: String, Sendable, Equatable, CaseIterable {
        case faceID, touchID, opticID, oneTimeCode, fundPassword, progress, warning, passkey, hold
        /// The emailed code (issue 30 §3).
        case email
        /// A factor passed (issue 30 §3).
        case factorPassed
        /// A policy limit (issue 30 §3).
        case limit

        /// The SF Symbol that draws it.
        public var systemImageName: String {
            switch self {
            case .faceID: "faceid"
            case .touchID: "touchid"
            case .opticID: "opticid"
            case .oneTimeCode: "number.square"
            case .fundPassword: "lock.shield"
            case .progress: "hourglass"
            case .warning: "exclamationmark.triangle"
            case .passkey: "person.badge.key"
            case .hold: "clock.badge.exclamationmark"
            case .email: "envelope"
            case .factorPassed: "checkmark.shield"
            case .limit: "gauge.with.needle"
            }
        }
    }

    /// What the picture shows.
    public var symbol: Symbol
    /// What VoiceOver says for the picture.
    public var accessibilityLabel: String

    public init(symbol: Symbol, accessibilityLabel: String) {
        self.symbol = symbol
        self.accessibilityLabel = accessibilityLabel
    }
}

/// One control on the page. Its `id` says which flow event a tap sends.
public struct VerificationButton: Sendable, Equatable, Identifiable {
    /// What the button does.
    public enum ID: String, Sendable, Equatable, CaseIterable {
        /// "再试一次" / "Try Again" after a biometric failure, or "再试一次" / "Try Again" or "重新验证" /
        /// "Start Again" to open a new verification.
        case retry
        /// "继续" / "Continue" on the permission explanation.
        case `continue`
        /// "使用密码验证" / "Use Password": the fund password.
        case usePassword
        /// "使用其他方式验证" / "Use Another Method": 2FA when bound, else the fund password (A5).
        case otherMethod
        /// "使用Face ID验证" / "Use Face ID" or "使用Touch ID验证" / "Use Touch ID" from a code page.
        case useBiometrics
        /// "前往设置" / "Open Settings" when the Face ID permission is off, or biometrics need Settings (−5, −6, −7).
        case openSettings
        /// "输入设备密码解锁Face ID" / "Unlock Face ID with Passcode" after a lockout (B2 −8): the device passcode
        /// unlocks biometry.
        case unlockWithPasscode
        /// "确认" / "Confirm": sends the typed code or fund password.
        case submit
        /// "使用通行密钥验证" / "Verify with Passkey": asks the device's passkey (the system sheet).
        case usePasskey
        /// "发送验证码" / "Send Code" or "重新发送" / "Resend Code" on the emailed code's page (issue 30 §3).
        case sendCode
        /// "取消" / "Cancel": closes the page; the action is not executed (A4).
        case cancel
    }

    /// How the button looks.
    public enum Role: String, Sendable, Equatable, CaseIterable {
        /// Filled: the page's main action (at most one per page).
        case primary
        /// A text button.
        case secondary
        /// The cancel button.
        case cancel
    }

    /// The key that triggers it on a hardware keyboard (iPad, Mac).
    public enum KeyboardShortcut: String, Sendable, Equatable, CaseIterable {
        /// Return.
        case defaultAction
        /// Escape (⌘.).
        case cancelAction
    }

    /// What the button does (which flow event a tap sends).
    public var id: ID
    /// The visible title, e.g. "再试一次" / "Try Again".
    public var title: String
    /// What VoiceOver reads as the control's name (it starts with the visible title).
    public var accessibilityLabel: String
    /// What VoiceOver reads after a pause: what happens on activation.
    public var accessibilityHint: String
    /// How it looks.
    public var role: Role
    /// Whether it can be used now (a request may be running).
    public var isEnabled: Bool
    /// Its hardware-keyboard key, if any.
    public var keyboardShortcut: KeyboardShortcut?
    /// The smallest frame the view may give it: 44 × 44 pt (A9).
    public var minimumSize: VerificationSize

    public init(
        id: ID, title: String, accessibilityLabel: String, accessibilityHint: String, role: Role,
        isEnabled: Bool = true, keyboardShortcut: KeyboardShortcut? = nil,
        minimumSize: VerificationSize = VerificationAppearance.minimumTouchTarget
    ) {
        self.id = id
        self.title = title
        self.accessibilityLabel = accessibilityLabel
        self.accessibilityHint = accessibilityHint
        self.role = role
        self.isEnabled = isEnabled
        self.keyboardShortcut = keyboardShortcut
        self.minimumSize = minimumSize
    }
}

/// The text field of the code and fund-password pages.
public struct VerificationInputField: Sendable, Equatable {
    /// What the field takes.
    public enum Kind: Sendable, Equatable {
        /// A 2FA code (`length` digits; a recovery code is accepted too): one-time-code content type.
        case oneTimeCode(length: Int)
        /// The fund password (`length` digits): a secure field.
        case fundPassword(length: Int)
    }

    /// What the field takes.
    public var kind: Kind
    /// The visible label and VoiceOver name, e.g. "6位验证码" / "6-digit code".
    public var label: String
    /// Shown while the field is empty.
    public var placeholder: String
    /// What VoiceOver says after the label.
    public var accessibilityHint: String
    /// Hide what is typed.
    public var isSecure: Bool
    /// Whether typing is possible now (not while a request runs).
    public var isEnabled: Bool
    /// The smallest frame: 44 pt high (A9).
    public var minimumSize: VerificationSize

    public init(
        kind: Kind, label: String, placeholder: String, accessibilityHint: String, isSecure: Bool,
        isEnabled: Bool = true, minimumSize: VerificationSize = VerificationAppearance.minimumTouchTarget
    ) {
        self.kind = kind
        self.label = label
        self.placeholder = placeholder
        self.accessibilityHint = accessibilityHint
        self.isSecure = isSecure
        self.isEnabled = isEnabled
        self.minimumSize = minimumSize
    }
}

/// A message for assistive technology when a screen appears (A9).
public struct VerificationAnnouncement: Sendable, Equatable {
    /// How the announcement joins what is being spoken.
    public enum Politeness: String, Sendable, Equatable, CaseIterable {
        /// Queued after current speech (`aria-live="polite"`; iOS 17 priority `.low`).
        case polite
    }

    /// What is said.
    public var text: String
    /// How it joins ongoing speech.
    public var politeness: Politeness

    public init(_ text: String, politeness: Politeness = .polite) {
        self.text = text
        self.politeness = politeness
    }
}

/// A size in points.
public struct VerificationSize: Sendable, Equatable {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
