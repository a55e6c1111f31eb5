#if canImport(SwiftUI) && canImport(Observation)
    import SwiftUI

    /// The registration screen (seed 004 §3.2) over a ``RegistrationScreenModel``. It decides nothing:
    /// texts, the meter, hints, errors and which buttons work come from the model.
    ///
    ///     RegistrationView(model: model, showTerms: { openURL(termsURL) }, showSignIn: { path.append(.signIn) })
    @MainActor
    public struct RegistrationView: View {
        @Bindable private var model: RegistrationScreenModel
        private let showTerms: () -> Void
        private let showSignIn: () -> Void

        public init(model: RegistrationScreenModel, showTerms: @escaping () -> Void, showSignIn: @escaping () -> Void) {
            self.model = model
            self.showTerms = showTerms
            self.showSignIn = showSignIn
        }

        public var body: some View {
            Form {
                switch model.step {
                case .details: details
                case .code: codeStep
                case .finished: EmptyView()
                }
                if let failure = model.failure {
                    Text(failure.message).foregroundStyle(.red)
                }
                if let notice = model.notice {
                    Text(notice)
                }
            }
            .announcing(model.failure?.message)
            .announcing(model.notice)
            .navigationTitle(model.step == .details ? model.strings.title : model.strings.codeTitle)
            .disabled(model.isBusy)
            .tickingEverySecond { model.tick() }
        }

        @ViewBuilder private var details: some View {
            Section(model.strings.emailLabel) {
                TextField(model.strings.emailPlaceholder, text: $model.email)
                    #if os(iOS)
                        .keyboardType(.emailAddress)
                        .textContentType(.emailAddress)
                        .textInputAutocapitalization(.never)
                    #endif
                    .autocorrectionDisabled()
                if let error = model.emailError { Text(error).foregroundStyle(.red) }
            }
            Section(model.strings.passwordLabel) {
                revealable(model.strings.passwordLabel, text: $model.password, visible: $model.isPasswordVisible)
                if let meter = model.strengthMeter {
                    HStack {
                        ProgressView(value: meter.fraction).accessibilityHidden(true)
                        Text(meter.text)
                    }
                    .accessibilityElement(children: .combine)
                }
                ForEach(model.ruleHints) { hint in
                    Label(hint.text, systemImage: hint.status == .met ? "checkmark.circle" : "circle")
                        .accessibilityValue(model.strings.ruleStatus(hint.status))
                }
            }
            Section(model.strings.confirmPasswordLabel) {
                revealable(
                    model.strings.confirmPasswordLabel, text: $model.confirmation, visible: $model.isConfirmationVisible
                )
                if let error = model.confirmationError { Text(error).foregroundStyle(.red) }
            }
            Section {
                TextField(model.strings.nicknameLabel, text: $model.nickname)
                Toggle(model.strings.termsAgreement, isOn: $model.termsAccepted)
                Button(model.strings.termsOfService + model.strings.privacyPolicy, action: showTerms)
            }
            Section {
                Button(model.registerTitle) { Task { await model.register() } }
                    .disabled(!model.canRegister)
                HStack {
                    Text(model.strings.haveAccount)
                    Button(model.strings.signIn, action: showSignIn)
                }
            }
        }

        @ViewBuilder private var codeStep: some View {
            Section {
                Text(model.codeSentMessage)
                TextField(model.strings.codeLabel, text: $model.code)
                    #if os(iOS)
                        .keyboardType(.numberPad)
                        .textContentType(.oneTimeCode)
                    #endif
                Button(model.strings.verify) { Task { await model.verify() } }
                    .disabled(!model.canVerify)
                Button(model.resendTitle) { Task { await model.resend() } }
                    .disabled(!model.canResend)
                Button(model.strings.changeEmail) { model.changeEmail() }
            }
        }

        @ViewBuilder private func revealable(_ label: String, text: Binding<String>, visible: Binding<Bool>)
            -> some View
        {
            HStack {
                if visible.wrappedValue {
                    TextField(label, text: text).newPasswordContent()
                } else {
                    SecureField(label, text: text).newPasswordContent()
                }
                Button {
                    visible.wrappedValue.toggle()
                } label: {
                    Image(systemName: visible.wrappedValue ? "eye.slash" : "eye")
                }
                .accessibilityLabel(model.strings.revealPassword(visible.wrappedValue))
                .buttonStyle(.borderless)
            }
        }
    }
#endif
