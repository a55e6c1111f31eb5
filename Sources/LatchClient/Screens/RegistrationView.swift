#if canImport(SwiftUI) && canImport(Observation)
    import SwiftUI

    /// The registration screen (seed 004 §3.2) over a ``RegistrationScreenModel``. It decides nothing:
    /// texts, the meter, hints, errors and which buttons work come from the model.
    ///
    ///     RegistrationView(
    ///         model: model, showTerms: { openURL(termsURL) }, showPrivacyPolicy: { openURL(privacyURL) },
    ///         showSignIn: { path.append(.signIn) })
    @MainActor
    public struct RegistrationView: View {
        @Bindable private var model: RegistrationScreenModel
        private let showTerms: () -> Void
        private let showPrivacyPolicy: () -> Void
        private let showSignIn: () -> Void

        /// 《用户协议》 and 《隐私政策》 are two links (issue 23 §1): `showTerms` and `showPrivacyPolicy` open one each.
        public init(
            model: RegistrationScreenModel, showTerms: @escaping () -> Void,
            showPrivacyPolicy: @escaping () -> Void, showSignIn: @escaping () -> Void
        ) {
            self.model = model
            self.showTerms = showTerms
            self.showPrivacyPolicy = showPrivacyPolicy
            self.showSignIn = showSignIn
        }

        /// One callback for both documents.
        @available(*, deprecated, message: "《用户协议》 and 《隐私政策》 are two links: pass showPrivacyPolicy too")
        public init(model: RegistrationScreenModel, showTerms: @escaping () -> Void, showSignIn: @escaping () -> Void) {
            self.init(model: model, showTerms: showTerms, showPrivacyPolicy: showTerms, showSignIn: showSignIn)
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
                revealable(
                    model.strings.passwordLabel, text: $model.password, visible: model.isPasswordVisible,
                    symbol: model.passwordRevealSymbol, revealLabel: model.passwordRevealLabel,
                    toggle: model.togglePasswordVisibility)
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
                    model.strings.confirmPasswordLabel, text: $model.confirmation, visible: model.isConfirmationVisible,
                    symbol: model.confirmationRevealSymbol, revealLabel: model.confirmationRevealLabel,
                    toggle: model.toggleConfirmationVisibility)
                if let error = model.confirmationError { Text(error).foregroundStyle(.red) }
            }
            Section {
                TextField(model.strings.nicknameLabel, text: $model.nickname)
                Toggle(model.strings.termsAgreement, isOn: $model.termsAccepted)
                HStack {
                    Button(model.strings.termsOfService, action: showTerms)
                    Button(model.strings.privacyPolicy, action: showPrivacyPolicy)
                }
                .buttonStyle(.borderless)
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

        /// A password field with its 👁; the state, symbol and VoiceOver label come from the model.
        @ViewBuilder private func revealable(
            _ label: String, text: Binding<String>, visible: Bool, symbol: String, revealLabel: String,
            toggle: @escaping () -> Void
        ) -> some View {
            HStack {
                if visible {
                    TextField(label, text: text).newPasswordContent()
                } else {
                    SecureField(label, text: text).newPasswordContent()
                }
                Button(action: toggle) {
                    Image(systemName: symbol)
                }
                .accessibilityLabel(revealLabel)
                .buttonStyle(.borderless)
            }
        }
    }
#endif
