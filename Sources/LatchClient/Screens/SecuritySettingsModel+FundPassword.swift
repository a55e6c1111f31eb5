#if canImport(Observation)
    import LatchCore

    extension SecuritySettingsModel {
        /// "设置资金密码" / "Set Fund Password" or "修改资金密码" / "Change Fund Password": opens the form.
        public func editFundPassword() {
            guard status != nil, !isBusy else { return }
            currentFundPassword = ""
            newFundPassword = ""
            fundPasswordConfirmation = ""
            isEditingFundPassword = true
        }

        /// "取消" / "Cancel" on the form.
        public func cancelFundPassword() {
            guard !isBusy else { return }
            isEditingFundPassword = false
            failure = nil
        }

        /// Whether the form asks for the current fund password (changing, not setting).
        public var asksForCurrentFundPassword: Bool { status?.fundPasswordSet == true }

        /// The rule the typed new fund password breaks, once six characters are typed or a non-digit is.
        public var newFundPasswordError: String? {
            guard !newFundPassword.isEmpty else { return nil }
            let violations = FundPasswordPolicy.violations(of: newFundPassword)
            guard let first = violations.first else { return nil }
            let stillTyping =
                first == .notSixDigits && newFundPassword.count < 6
                && newFundPassword.allSatisfy { $0.isASCII && $0.isWholeNumber }
            return stillTyping ? nil : strings.fundPasswordRule(first)
        }

        /// "两次输入的资金密码不一致" / "The fund passwords do not match.", once a confirmation of full length differs.
        public var fundPasswordConfirmationError: String? {
            guard fundPasswordConfirmation.count >= newFundPassword.count, !fundPasswordConfirmation.isEmpty else {
                return nil
            }
            return fundPasswordConfirmation == newFundPassword ? nil : strings.fundPasswordsDiffer
        }

        /// "保存" / "Save" works: an acceptable new fund password, confirmed, with the current one when changing.
        public var canSaveFundPassword: Bool {
            guard isEditingFundPassword, !isBusy else { return false }
            let currentOK =
                !asksForCurrentFundPassword || FundPasswordPolicy.violations(of: currentFundPassword) != [.notSixDigits]
            return currentOK && FundPasswordPolicy.violations(of: newFundPassword).isEmpty
                && fundPasswordConfirmation == newFundPassword
        }

        /// "保存" / "Save": sets the fund password (after a verification when the server asks) or changes it with
        /// the current one.
        public func saveFundPassword() async {
            guard canSaveFundPassword else { return }
            let changing = asksForCurrentFundPassword
            let (current, new) = (currentFundPassword, newFundPassword)
            await perform {
                do {
                    if changing {
                        try await self.service.setFundPassword(new, current: current, verificationToken: nil)
                    } else {
                        let context = VerificationContext(
                            action: VerificationAction.setFundPassword.rawValue,
                            localizedReason: self.strings.setFundPasswordReason)
                        guard
                            try await self.withVerification(
                                context,
                                { try await self.service.setFundPassword(new, current: nil, verificationToken: $0) })
                                != nil
                        else { return }
                    }
                } catch let error as LatchClientError where error.code == .wrongCode {
                    // AUTH_003 here is the current fund password, not a code: say so, with the tries left.
                    let left = error.serverError?.attemptsRemaining
                    self.failure = ScreenFailure(
                        message: left.map {
                            self.strings.joined(self.strings.wrongFundPassword, self.strings.attemptsRemaining($0))
                        }
                            ?? self.strings.wrongFundPassword,
                        code: .wrongCode, attemptsRemaining: left)
                    return
                } catch let error as LatchClientError
                    where error.code == .validationFailed
                    && error.serverError?.reasons?.contains(FundPasswordPolicy.Violation.sameAsLoginPassword.rawValue)
                        == true
                {
                    self.failure = ScreenFailure(
                        message: self.strings.fundPasswordRule(.sameAsLoginPassword), code: .validationFailed,
                        field: error.serverError?.field)
                    return
                }
                self.status?.fundPasswordSet = true
                self.isEditingFundPassword = false
                self.currentFundPassword = ""
                self.newFundPassword = ""
                self.fundPasswordConfirmation = ""
                self.notice = self.strings.fundPasswordSaved(changed: changing)
            }
        }
    }
#endif
