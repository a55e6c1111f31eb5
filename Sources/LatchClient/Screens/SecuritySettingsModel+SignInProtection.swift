#if canImport(Observation)
    import LatchCore

    // The sign-in protections of seed 004 §6.2 安全设置: "☑ 新设备登录时通知" and "☑ 异常登录时强制验证".
    // Each is on by default; turning one off is protected by the server (VERIFICATION_REQUIRED opens the
    // verification page for its action), turning it on needs nothing.
    extension SecuritySettingsModel {
        /// The "异常登录时强制验证" / "Verify unusual sign-ins" switch moved to `on`.
        public func setVerifyUnusualSignIns(_ on: Bool) async {
            guard let current = status, current.verifyUnusualSignIns != on else { return }
            await setProtection(
                VerificationContext(
                    action: LatchClient.disableUnusualSignInCheckAction,
                    localizedReason: strings.disableUnusualSignInCheckReason),
                { try await self.service.setVerifyUnusualSignIns(on, verificationToken: $0) },
                store: { $0.verifyUnusualSignIns = $1 })
        }

        /// The "新设备登录时通知" / "Notify me of sign-ins from new devices" switch moved to `on`
        /// (issue 23 §1). Turning it off is mailed to the owner by the server.
        public func setNotifyNewDevices(_ on: Bool) async {
            guard let current = status, current.notifyNewDevices != on else { return }
            await setProtection(
                VerificationContext(
                    action: LatchClient.disableNewDeviceNoticeAction,
                    localizedReason: strings.disableNewDeviceNoticeReason),
                { try await self.service.setNotifyNewDevices(on, verificationToken: $0) },
                store: { $0.notifyNewDevices = $1 })
        }

        /// Sends one protection's change (verifying when the server asks for `context`) and keeps the
        /// position the server answered.
        private func setProtection(
            _ context: VerificationContext, _ call: @escaping @MainActor (String?) async throws -> Bool,
            store: @escaping (inout SecurityStatus, Bool) -> Void
        ) async {
            guard !isBusy else { return }
            await perform {
                guard let now = try await self.withVerification(context, call) else { return }
                guard var status = self.status else { return }
                store(&status, now)
                self.status = status
            }
        }
    }
#endif
