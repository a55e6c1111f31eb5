#if canImport(SwiftUI) && canImport(Observation)
    import SwiftUI

    /// The sign-in screen (seed 004 §2) over a ``SignInScreenModel``. It decides nothing: the forms,
    /// the lockout countdown, the other methods and which buttons work come from the model.
    ///
    ///     SignInView(model: model, forgotPassword: { path.append(.reset) }, register: { path.append(.register) })
    @MainActor
    public struct SignInView: View {
        @Bindable private var model: SignInScreenModel
        private let forgotPassword: () -> Void
        private let register: () -> Void

        public init(model: SignInScreenModel, forgotPassword: @escaping () -> Void, register: @escaping () -> Void) {
            self.model = model
            self.forgotPassword = forgotPassword
            self.register = register
        }

        public var body: some View {
            Form {
                if let prompt = model.challengePrompt {
                    challenge(prompt)
                } else {
                    form
                }
                if let failure = model.failure {
                    Section {
                        Text(failure.message).foregroundStyle(.red)
                        if let detail = model.lockoutDetail { Text(detail) }
                    }
                }
                if let notice = model.notice { Text(notice) }
            }
            .announcing(model.failure?.message)
            .announcing(model.notice)
            .navigationTitle(model.challengePrompt == nil ? model.strings.title : model.strings.challengeTitle)
            .disabled(model.isBusy)
            .tickingEverySecond { model.tick() }
        }

        @ViewBuilder private var form: some View {
            if model.modes.count > 1 {
                Picker(model.strings.title, selection: $model.mode) {
                    Text(model.strings.emailTab).tag(SignInScreenModel.Mode.emailPassword)
                    Text(model.strings.phoneTab).tag(SignInScreenModel.Mode.phoneCode)
                }
                .pickerStyle(.segmented)
            }
            switch model.mode {
            case .emailPassword:
                Section {
                    TextField(model.strings.emailLabel, text: $model.email)
                        #if os(iOS)
                            .keyboardType(.emailAddress)
                            .textContentType(.username)
                            .textInputAutocapitalization(.never)
                        #endif
                        .autocorrectionDisabled()
                    if let error = model.emailError { Text(error).foregroundStyle(.red) }
                    HStack {
                        if model.isPasswordVisible {
                            TextField(model.strings.passwordLabel, text: $model.password).passwordContent()
                        } else {
                            SecureField(model.strings.passwordLabel, text: $model.password).passwordContent()
                        }
                        Button {
                            model.isPasswordVisible.toggle()
                        } label: {
                            Image(systemName: model.isPasswordVisible ? "eye.slash" : "eye")
                        }
                        .accessibilityLabel(model.strings.revealPassword(model.isPasswordVisible))
                        .buttonStyle(.borderless)
                    }
                }
            case .phoneCode:
                Section {
                    TextField(model.strings.phoneLabel, text: $model.phone)
                        #if os(iOS)
                            .keyboardType(.phonePad)
                            .textContentType(.telephoneNumber)
                        #endif
                    if let error = model.phoneError { Text(error).foregroundStyle(.red) }
                    HStack {
                        TextField(model.strings.codeLabel, text: $model.smsCode)
                            #if os(iOS)
                                .keyboardType(.numberPad)
                                .textContentType(.oneTimeCode)
                            #endif
                        Button(model.sendCodeTitle) { Task { await model.sendCode() } }
                            .disabled(!model.canSendCode)
                            .buttonStyle(.borderless)
                    }
                }
            }
            Section {
                Button(model.strings.signIn) { Task { await model.signIn() } }
                    .disabled(!model.canSignIn)
                if model.offersForgotPassword {
                    Button(model.strings.forgotPassword, action: forgotPassword)
                        .fontWeight(model.highlightsForgotPassword ? .bold : .regular)
                }
                HStack {
                    Text(model.strings.noAccount)
                    Button(model.strings.register, action: register)
                }
            }
            if !model.externalMethods.isEmpty {
                Section(model.strings.otherMethods) {
                    ForEach(model.externalMethods, id: \.self) { method in
                        Button(model.strings.title(for: method)) { Task { await model.signIn(with: method) } }
                    }
                }
            }
        }

        @ViewBuilder private func challenge(_ prompt: String) -> some View {
            Section {
                Text(prompt)
                TextField(model.strings.codeLabel, text: $model.challengeCode)
                    #if os(iOS)
                        .keyboardType(.numberPad)
                        .textContentType(.oneTimeCode)
                    #endif
                Button(model.strings.verify) { Task { await model.answerChallenge() } }
                    .disabled(!model.canAnswerChallenge)
                Button(model.strings.back) { model.leaveChallenge() }
            }
        }
    }
#endif
