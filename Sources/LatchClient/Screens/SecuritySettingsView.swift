#if canImport(SwiftUI) && canImport(Observation)
    import SwiftUI

    /// The security settings screen (seed 004 §6.2 安全设置, §9) over a ``SecuritySettingsModel``: the
    /// biometric switch, 2FA (with its setup sheet), the fund password form, and the sign-in protections.
    /// The verification page the model opens is the app's `VerificationSheet`, presented as usual.
    ///
    ///     SecuritySettingsView(model: model)
    @MainActor
    public struct SecuritySettingsView: View {
        @Bindable private var model: SecuritySettingsModel

        public init(model: SecuritySettingsModel) {
            self.model = model
        }

        public var body: some View {
            Form {
                if model.status != nil {
                    if model.showsBiometricRow {
                        Section {
                            Toggle(model.biometricSwitchLabel, isOn: $model.biometricSwitch)
                                .disabled(!model.canToggleBiometrics)
                        } footer: {
                            Text(model.biometricDetail)
                        }
                    }
                    Section {
                        LabeledContent(model.strings.twoFactorTitle, value: model.twoFactorState)
                        Button(model.twoFactorAction) { Task { await model.changeTwoFactor() } }
                            .disabled(!model.canChangeTwoFactor)
                    }
                    Section {
                        LabeledContent(model.strings.fundPasswordTitle, value: model.fundPasswordState)
                        Button(model.fundPasswordAction) { model.editFundPassword() }
                        if model.isEditingFundPassword { fundPasswordForm }
                    }
                    Section {
                        Toggle(model.strings.notifyNewDevices, isOn: $model.newDeviceNoticeSwitch)
                        Toggle(model.strings.verifyUnusualSignIns, isOn: $model.unusualSignInSwitch)
                    } footer: {
                        Text(
                            model.strings.joined(
                                model.strings.notifyNewDevicesDetail, model.strings.verifyUnusualSignInsDetail))
                    }
                } else if model.failure == nil {
                    ProgressView(model.strings.loading)
                }
                if let failure = model.failure {
                    Section {
                        Text(failure.message).foregroundStyle(.red)
                        if model.status == nil { Button(model.strings.retry) { Task { await model.load() } } }
                    }
                }
                if let notice = model.notice { Text(notice) }
            }
            .announcing(model.failure?.message)
            .announcing(model.notice)
            .navigationTitle(model.strings.title)
            .disabled(model.isBusy)
            .task { if model.status == nil { await model.load() } }
            .sheet(isPresented: $model.isTwoFactorSetupPresented) {
                twoFactorSheet
            }
        }

        @ViewBuilder private var fundPasswordForm: some View {
            if model.asksForCurrentFundPassword {
                SecureField(model.strings.currentFundPasswordLabel, text: $model.currentFundPassword)
                    #if os(iOS)
                        .keyboardType(.numberPad)
                    #endif
            }
            // No AutoFill suggestion for the fund password: it is not the account's password.
            SecureField(model.strings.newFundPasswordLabel, text: $model.newFundPassword)
                #if os(iOS)
                    .keyboardType(.numberPad)
                    .textContentType(.oneTimeCode)
                #endif
            if let error = model.newFundPasswordError {
                Text(error).foregroundStyle(.red)
            } else {
                Text(model.strings.fundPasswordHint).font(.footnote)
            }
            SecureField(model.strings.confirmFundPasswordLabel, text: $model.fundPasswordConfirmation)
                #if os(iOS)
                    .keyboardType(.numberPad)
                    .textContentType(.oneTimeCode)
                #endif
            if let error = model.fundPasswordConfirmationError { Text(error).foregroundStyle(.red) }
            Button(model.strings.save) { Task { await model.saveFundPassword() } }
                .disabled(!model.canSaveFundPassword)
            Button(model.strings.cancel) { model.cancelFundPassword() }
        }

        @ViewBuilder private var twoFactorSheet: some View {
            NavigationStack {
                Form {
                    switch model.twoFactorSetup {
                    case .enterCode(let enrollment):
                        Section {
                            Text(model.strings.twoFactorAddKey)
                            Text(enrollment.secret).font(.body.monospaced()).textSelection(.enabled)
                            if let url = URL(string: enrollment.otpauthURI) {
                                Link(model.strings.twoFactorTitle, destination: url)
                            }
                        }
                        Section {
                            Text(model.strings.twoFactorEnterCode)
                            TextField(model.strings.codeLabel, text: $model.twoFactorCode)
                                #if os(iOS)
                                    .keyboardType(.numberPad)
                                    .textContentType(.oneTimeCode)
                                #endif
                            Button(model.strings.confirm) { Task { await model.confirmTwoFactor() } }
                                .disabled(!model.canConfirmTwoFactor)
                            Button(model.strings.cancel) { model.closeTwoFactorSetup() }
                        }
                    case .recoveryCodes(let codes):
                        Section {
                            Text(model.strings.recoveryCodesNotice)
                            ForEach(codes, id: \.self) { Text($0).font(.body.monospaced()).textSelection(.enabled) }
                            Button(model.strings.recoveryCodesSaved) { model.closeTwoFactorSetup() }
                        }
                    case nil:
                        EmptyView()
                    }
                    if let failure = model.failure { Text(failure.message).foregroundStyle(.red) }
                }
                .navigationTitle(model.strings.twoFactorTitle)
                .disabled(model.isBusy)
            }
            .interactiveDismissDisabled()
        }
    }
#endif
