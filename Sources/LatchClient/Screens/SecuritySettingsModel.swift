#if canImport(Observation)
    import Foundation
    import LatchCore
    import Observation

    /// The security settings screen (seed 004 §6.2 安全设置, §9 生物识别; D1, D2, C8) as a tested model:
    /// Face ID / Touch ID on and off, 2FA on (secret, first code, recovery codes) and off, the fund password
    /// set or changed, "新设备登录时通知" / "Notify me of sign-ins from new devices" and "异常登录时强制验证" /
    /// "Verify unusual sign-ins". A change the server protects
    /// (VERIFICATION_REQUIRED) opens the verification page through `verify` and is sent again with its
    /// token. `SecuritySettingsView` only renders it.
    ///
    ///     @State private var model = SecuritySettingsModel(
    ///         service: LatchSecuritySettingsService(client: client, authenticator: auth, keys: keys, language: .zhHans),
    ///         language: .zhHans
    ///     ) { context in await client.verify(context, authenticator: auth, keys: keys, presenter: sheet, language: .zhHans) }
    @MainActor
    @Observable
    public final class SecuritySettingsModel {
        /// The 2FA setup, once started.
        public enum TwoFactorSetup: Sendable, Equatable {
            /// Add the secret to an authenticator app, then type its first code.
            case enterCode(TOTPEnrollment)
            /// 2FA is on: show the recovery codes, once.
            case recoveryCodes([String])
        }

        /// The switches as last read or changed; `nil` until loaded.
        public internal(set) var status: SecurityStatus?
        /// A request is running.
        public internal(set) var isBusy = false
        /// The last failure; cleared by the next request.
        public internal(set) var failure: ScreenFailure?
        /// A passing note ("两步验证已开启" / "Two-factor authentication is on.").
        public internal(set) var notice: String?
        /// The 2FA setup in progress.
        public internal(set) var twoFactorSetup: TwoFactorSetup?
        /// The typed first 2FA code.
        public var twoFactorCode = ""
        /// The fund-password form is open.
        public internal(set) var isEditingFundPassword = false
        /// The typed current fund password (changing only).
        public var currentFundPassword = ""
        /// The typed new fund password.
        public var newFundPassword = ""
        /// The typed confirmation.
        public var fundPasswordConfirmation = ""

        /// The texts in the screen's language.
        public let strings: SecuritySettingsStrings

        @ObservationIgnored let service: any SecuritySettingsService
        @ObservationIgnored let verify: ScreenVerifier

        /// - Parameter verify: runs the verification page for a protected change (see ``ScreenVerifier``).
        public init(service: any SecuritySettingsService, language: LatchLanguage, verify: @escaping ScreenVerifier) {
            self.service = service
            self.strings = SecuritySettingsStrings(language)
            self.verify = verify
        }

        // MARK: What shows

        /// Whether the biometric row shows: the device has a sensor, or biometric sign-in is on.
        public var showsBiometricRow: Bool {
            guard let status else { return false }
            return status.biometricSignInEnabled || status.biometricUnavailable != .notSupported
        }

        /// The biometric row's name: "Face ID".
        public var biometricTitle: String { strings.biometricTitle(status?.biometry) }

        /// The biometric switch's label as seed 002 names it: "面容登录" / "Face ID sign-in", "指纹登录" /
        /// "Touch ID sign-in" (issue 23 §1).
        public var biometricSwitchLabel: String { strings.biometricSwitch(status?.biometry) }

        /// The line under the biometric switch: what it does, or why it cannot be turned on.
        public var biometricDetail: String {
            guard let status else { return strings.biometricDetail }
            if !status.biometricSignInEnabled, let reason = status.biometricUnavailable {
                return strings.biometricUnavailable(reason, kind: status.biometry)
            }
            return strings.biometricDetail
        }

        /// The biometric switch can move: on can always be turned off; off only when biometrics are usable.
        public var canToggleBiometrics: Bool {
            guard let status, !isBusy else { return false }
            return status.biometricSignInEnabled || status.biometricUnavailable == nil
        }

        /// The biometric switch for a SwiftUI `Toggle`: reads the status, and moving it runs
        /// ``setBiometricSignIn(_:)``.
        public var biometricSwitch: Bool {
            get { status?.biometricSignInEnabled ?? false }
            set { Task { await self.setBiometricSignIn(newValue) } }
        }

        /// The "异常登录时强制验证" / "Verify unusual sign-ins" switch for a SwiftUI `Toggle`: moving it runs
        /// ``setVerifyUnusualSignIns(_:)``.
        public var unusualSignInSwitch: Bool {
            get { status?.verifyUnusualSignIns ?? true }
            set { Task { await self.setVerifyUnusualSignIns(newValue) } }
        }

        /// The "新设备登录时通知" / "Notify me of sign-ins from new devices" switch for a SwiftUI `Toggle`:
        /// moving it runs ``setNotifyNewDevices(_:)``.
        public var newDeviceNoticeSwitch: Bool {
            get { status?.notifyNewDevices ?? true }
            set { Task { await self.setNotifyNewDevices(newValue) } }
        }

        /// Whether the 2FA setup sheet shows; setting `false` (the sheet dismissed) closes the setup.
        public var isTwoFactorSetupPresented: Bool {
            get { twoFactorSetup != nil }
            set { if !newValue { closeTwoFactorSetup() } }
        }

        /// "已开启" / "On" or "未开启" / "Off" for 2FA.
        public var twoFactorState: String { status?.twoFactorEnabled == true ? strings.on : strings.off }

        /// The 2FA button: "开启" / "Turn On" or "关闭" / "Turn Off".
        public var twoFactorAction: String { status?.twoFactorEnabled == true ? strings.turnOff : strings.turnOn }

        /// "已设置" / "Set" or "未设置" / "Not set" for the fund password.
        public var fundPasswordState: String { strings.fundPasswordState(status?.fundPasswordSet == true) }

        /// The fund-password button: "设置资金密码" / "Set Fund Password" or "修改资金密码" / "Change Fund Password".
        public var fundPasswordAction: String {
            status?.fundPasswordSet == true ? strings.changeFundPassword : strings.setFundPassword
        }

        // MARK: Loading

        /// Reads the switches' positions.
        public func load() async {
            await perform {
                self.status = try await self.service.securityStatus()
            }
        }

        // MARK: Biometrics (seed §9)

        /// The biometric switch moved to `on`.
        public func setBiometricSignIn(_ on: Bool) async {
            guard canToggleBiometrics, let current = status, current.biometricSignInEnabled != on else { return }
            await perform {
                guard on else {
                    try await self.service.disableBiometricSignIn()
                    self.status?.biometricSignInEnabled = false
                    return
                }
                let context = VerificationContext(
                    action: VerificationAction.bindDevice.rawValue,
                    localizedReason: self.strings.enableBiometricsReason(current.biometry))
                guard
                    let result = try await self.withVerification(
                        context, { try await self.service.enableBiometricSignIn(verificationToken: $0) })
                else { return }
                switch result {
                case .enabled(let binding):
                    self.status?.biometricSignInEnabled = true
                    self.status?.biometry = binding.biometry
                    self.status?.biometricUnavailable = nil
                case .unavailable(let reason):
                    self.status?.biometricUnavailable = reason
                    self.failure = ScreenFailure(
                        message: self.strings.biometricUnavailable(reason, kind: current.biometry))
                case .notVerified(let failure):
                    switch failure.handling {
                    case .cancelLike, .retryWhenActive:
                        // The user (or the system) cancelled: nothing changed, nothing to say.
                        break
                    case .settingsLike, .lockout, .authenticationFailed, .userFallback, .unexpected:
                        self.failure = ScreenFailure(message: self.strings.biometricNotVerified(current.biometry))
                    }
                }
            }
        }

        // MARK: Plumbing

        /// Runs `call` without a token; when the server asks for a verification, runs the page for
        /// `context` and calls again with its token. `nil` when the user cancelled the page.
        func withVerification<Result>(
            _ context: VerificationContext, _ call: @MainActor (String?) async throws -> Result
        ) async throws -> Result? {
            try await ScreenVerification(verify: verify).run(context, call)
        }

        /// Runs the verification page for `context`: its token, `nil` when cancelled; a failed page throws.
        func proof(for context: VerificationContext) async throws -> String? {
            try await ScreenVerification(verify: verify).proof(for: context)
        }

        /// Runs one request: busy meanwhile, its failure shown.
        func perform(_ work: @MainActor () async throws -> Void) async {
            isBusy = true
            failure = nil
            notice = nil
            // The work may have set a failure of its own (a biometric check that did not pass): kept.
            if let failed = await ScreenVerification.failure(of: work, language: strings.language) { failure = failed }
            isBusy = false
        }
    }
#endif
