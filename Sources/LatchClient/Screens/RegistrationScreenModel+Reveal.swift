#if canImport(Observation)
    import LatchCore

    /// The 👁 of the password fields (seed 004 §3.2, issue 23 §1): whether each shows what is typed, the
    /// symbol the button draws, and what VoiceOver says for it ("显示密码" / "Show Password" while hidden,
    /// "隐藏密码" / "Hide Password" while shown).
    extension RegistrationScreenModel {
        /// The password's 👁 for VoiceOver: "显示密码" while hidden, "隐藏密码" while shown.
        public var passwordRevealLabel: String { strings.revealPassword(isPasswordVisible) }
        /// The confirmation's 👁 for VoiceOver.
        public var confirmationRevealLabel: String { strings.revealPassword(isConfirmationVisible) }
        /// The SF Symbol of the password's 👁: `eye` while hidden (tap to show), `eye.slash` while shown.
        public var passwordRevealSymbol: String { Self.revealSymbol(isPasswordVisible) }
        /// The SF Symbol of the confirmation's 👁.
        public var confirmationRevealSymbol: String { Self.revealSymbol(isConfirmationVisible) }

        /// A tap on the password's 👁.
        public func togglePasswordVisibility() { isPasswordVisible.toggle() }
        /// A tap on the confirmation's 👁.
        public func toggleConfirmationVisibility() { isConfirmationVisible.toggle() }

        private static func revealSymbol(_ isVisible: Bool) -> String { isVisible ? "eye.slash" : "eye" }
    }
#endif
