#if canImport(Observation)
    import LatchCore

    extension SecuritySettingsModel {
        /// The 2FA button works (nothing runs, no setup open).
        public var canChangeTwoFactor: Bool { status != nil && !isBusy && twoFactorSetup == nil }

        /// "确认" / "Confirm" on the setup's code step works: six digits typed.
        public var canConfirmTwoFactor: Bool {
            guard case .enterCode = twoFactorSetup, !isBusy else { return false }
            return twoFactorCode.count == 6 && twoFactorCode.allSatisfy { $0.isASCII && $0.isWholeNumber }
        }

        /// "开启" / "Turn On" (a new secret, after a verification when the server asks) or "关闭" / "Turn Off" (always after a
        /// verification of `disable_totp`, D1).
        public func changeTwoFactor() async {
            guard canChangeTwoFactor, let current = status else { return }
            await perform {
                if current.twoFactorEnabled {
                    let context = VerificationContext(
                        action: VerificationAction.disableTOTP.rawValue,
                        localizedReason: self.strings.disableTwoFactorReason)
                    guard let token = try await self.proof(for: context) else { return }
                    try await self.service.disableTwoFactor(verificationToken: token)
                    self.status?.twoFactorEnabled = false
                    self.notice = self.strings.twoFactorChanged(false)
                } else {
                    let context = VerificationContext(
                        action: VerificationAction.enableTOTP.rawValue,
                        localizedReason: self.strings.enableTwoFactorReason)
                    guard
                        let enrollment = try await self.withVerification(
                            context, { try await self.service.startTwoFactorSetup(verificationToken: $0) })
                    else { return }
                    self.twoFactorCode = ""
                    self.twoFactorSetup = .enterCode(enrollment)
                }
            }
        }

        /// "确认" / "Confirm": the first code turns 2FA on; the recovery codes show.
        public func confirmTwoFactor() async {
            guard canConfirmTwoFactor else { return }
            let code = twoFactorCode
            await perform {
                let codes = try await self.service.activateTwoFactor(code: code)
                self.status?.twoFactorEnabled = true
                self.twoFactorCode = ""
                self.twoFactorSetup = .recoveryCodes(codes)
            }
        }

        /// "我已保存" / "I Saved Them" under the recovery codes, or "取消" / "Cancel" during the setup (2FA stays off then).
        public func closeTwoFactorSetup() {
            guard !isBusy, let setup = twoFactorSetup else { return }
            twoFactorSetup = nil
            twoFactorCode = ""
            if case .recoveryCodes = setup { notice = strings.twoFactorChanged(true) }
        }
    }
#endif
