#if canImport(SwiftUI)
    import SwiftUI
    #if canImport(Accessibility)
        import Accessibility // AccessibilityNotification.Announcement (iOS 17, macOS 14)
    #endif

    /// The verification page (CW-023) in SwiftUI. It decides nothing: everything it shows — texts,
    /// buttons, accessibility labels and hints, the announcement, colours, the 44 pt minimum — comes
    /// from the `VerificationScreen` that `VerificationFlow` built and the tests check on Linux.
    ///
    ///     .verificationPage(model)   // a VerificationSheetModel; or present VerificationSheet yourself
    ///
    /// Each new screen's announcement is posted politely (queued after current speech, A9); leaving
    /// the app reports `.appDidEnterBackground` (A8).
    public struct VerificationSheet: View {
        private let screen: VerificationScreen
        private let appIcon: Image?
        private let send: (VerificationInput) -> Void

        @State private var entry = ""
        @FocusState private var fieldFocused: Bool
        @Environment(\.colorScheme) private var colorScheme
        @Environment(\.scenePhase) private var scenePhase

        /// A page showing `screen` under the app's icon (seed §2.2; decorative, hidden from VoiceOver
        /// since the title names the page): by default the app's own icon (issue 23 §1), `nil` for none;
        /// `send` receives what the user does.
        public init(
            screen: VerificationScreen, appIcon: Image? = VerificationSheet.bundledAppIcon,
            send: @escaping (VerificationInput) -> Void
        ) {
            self.screen = screen
            self.appIcon = appIcon
            self.send = send
        }

        public var body: some View {
            ZStack {
                Rectangle()
                    .fill(.ultraThinMaterial)
                    .overlay(Color.black.opacity(VerificationAppearance.backdropOpacity))
                    .ignoresSafeArea()
                    .accessibilityHidden(true)
                card
            }
            .onAppear {
                announce(screen.announcement)
                fieldFocused = screen.input != nil
            }
            .onChange(of: screen) { old, new in
                if new.kind != old.kind || (old.isBusy && !new.isBusy) { entry = "" }
                fieldFocused = new.input?.isEnabled == true
                // The hold page's countdown replaces the screen every second with the same announcement:
                // it is said once (issue 19 §2).
                if new.countdown == nil || new.announcement != old.announcement { announce(new.announcement) }
            }
            .onChange(of: scenePhase) { _, phase in
                // .inactive also happens while the system Face ID prompt is up; only leaving the app counts.
                if phase == .background { send(.appDidEnterBackground) }
            }
        }

        /// The app's own icon, found through its Info.plist (`AppIconName`); `nil` when it has none.
        public static var bundledAppIcon: Image? {
            guard let name = AppIconName.primary(in: Bundle.main.infoDictionary ?? [:]) else { return nil }
            #if canImport(UIKit)
                return UIImage(named: name).map { Image(uiImage: $0) }
            #elseif canImport(AppKit)
                return NSImage(named: name).map { Image(nsImage: $0) }
            #else
                return nil
            #endif
        }

        private var palette: VerificationPalette {
            colorScheme == .dark ? VerificationAppearance.dark : VerificationAppearance.light
        }

        private var card: some View {
            VStack(spacing: 16) {
                if let appIcon {
                    appIcon
                        .resizable()
                        .scaledToFit()
                        .frame(width: 48, height: 48)
                        .clipShape(RoundedRectangle(cornerRadius: 11))
                        .accessibilityHidden(true)
                }
                Image(systemName: screen.icon.symbol.systemImageName)
                    .font(.system(size: 44))
                    .foregroundStyle(Color(verification: palette.title))
                    .accessibilityLabel(screen.icon.accessibilityLabel)
                Text(screen.title)
                    .font(.headline)
                    .foregroundStyle(Color(verification: palette.title))
                    .accessibilityAddTraits(.isHeader)
                if let operation = screen.operationDescription {
                    // Seed 000 §5.1: the caller's description of the action, on the card itself.
                    Text(operation)
                        .font(.subheadline.weight(.semibold))
                        .multilineTextAlignment(.center)
                        .foregroundStyle(Color(verification: palette.body))
                }
                if let requirement = screen.requirement {
                    // Issue 30 §3: what the policy asks for ("需要两项验证" / "Two verifications are needed.").
                    Text(requirement)
                        .font(.footnote)
                        .multilineTextAlignment(.center)
                        .foregroundStyle(Color(verification: palette.body))
                }
                Text(screen.message)
                    .font(.body)
                    .multilineTextAlignment(.center)
                    .foregroundStyle(Color(verification: screen.tone == .warning ? palette.warning : palette.body))
                if let detail = screen.detail {
                    Text(detail)
                        .font(.subheadline)
                        .multilineTextAlignment(.center)
                        .foregroundStyle(Color(verification: screen.tone == .warning ? palette.warning : palette.body))
                }
                if let countdown = screen.countdown {
                    countdownLines(countdown)
                }
                if screen.isBusy {
                    ProgressView()
                        .accessibilityLabel(screen.message)
                }
                if let input = screen.input {
                    field(input)
                }
                ForEach(screen.buttons) { button in
                    control(button)
                }
            }
            .padding(24)
            .frame(maxWidth: 380)
            .background(
                RoundedRectangle(cornerRadius: VerificationAppearance.cardCornerRadius)
                    .fill(Color(verification: palette.card))
            )
            .padding(24)
            .accessibilityElement(children: .contain)
            .accessibilityAddTraits(.isModal)
        }

        /// The hold page's time left (monospaced, read in words by VoiceOver) and until when (issue 19 §2).
        private func countdownLines(_ countdown: VerificationCountdown) -> some View {
            VStack(spacing: 4) {
                Text(countdown.remaining)
                    .font(.title2.monospacedDigit())
                    .foregroundStyle(Color(verification: palette.title))
                    .accessibilityLabel(countdown.accessibilityLabel)
                Text(countdown.until)
                    .font(.subheadline)
                    .foregroundStyle(Color(verification: palette.body))
            }
        }

        private func field(_ input: VerificationInputField) -> some View {
            Group {
                if input.isSecure {
                    SecureField(input.placeholder, text: $entry)
                } else {
                    TextField(input.placeholder, text: $entry)
                }
            }
            #if os(iOS) || os(visionOS)
                .keyboardType(Self.keyboard(for: input.kind))
                // The fund password is this app's 6-digit PIN, not an account password: `.password` (or no
                // type, as AutoFill's heuristics treat any secure field as a password) would offer saved
                // passwords for it. `.oneTimeCode` is the documented content type that is not a stored
                // credential, so no password AutoFill is offered; the 2FA field is a one-time code anyway.
                .textContentType(.oneTimeCode)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
            #endif
            .multilineTextAlignment(.center)
            .foregroundStyle(Color(verification: palette.fieldText))
            .frame(minWidth: input.minimumSize.width, maxWidth: .infinity, minHeight: input.minimumSize.height)
            .background(
                RoundedRectangle(cornerRadius: 10).fill(Color(verification: palette.fieldBackground))
            )
            .disabled(!input.isEnabled)
            .focused($fieldFocused)
            .onSubmit { submit(input) }
            .accessibilityLabel(input.label)
            .accessibilityHint(input.accessibilityHint)
        }

        private func control(_ button: VerificationButton) -> some View {
            let filled = button.role == .primary
            let foreground: VerificationColor =
                !button.isEnabled ? palette.disabled : (filled ? palette.primaryLabel : palette.link)
            return Button {
                tap(button)
            } label: {
                Text(button.title)
                    .font(filled ? .body.weight(.semibold) : .body)
                    .foregroundStyle(Color(verification: foreground))
                    .frame(
                        minWidth: button.minimumSize.width, maxWidth: .infinity, minHeight: button.minimumSize.height
                    )
                    .background(
                        RoundedRectangle(cornerRadius: 10)
                            .fill(filled && button.isEnabled ? Color(verification: palette.primaryFill) : Color.clear)
                    )
                    .contentShape(Rectangle())
            }
            .buttonStyle(.plain)
            .disabled(!button.isEnabled)
            .modifier(Shortcut(shortcut: button.keyboardShortcut))
            .accessibilityLabel(button.accessibilityLabel)
            .accessibilityHint(button.accessibilityHint)
        }

        private func tap(_ button: VerificationButton) {
            switch button.id {
            case .submit:
                if let input = screen.input { submit(input) }
            case .retry, .continue, .usePassword, .otherMethod, .useBiometrics, .openSettings, .unlockWithPasscode,
                .usePasskey, .sendCode, .cancel:
                send(.tapped(button.id))
            }
        }

        private func submit(_ input: VerificationInputField) {
            switch input.kind {
            case .oneTimeCode:
                send(.submittedCode(VerificationSecret(entry)))
            case .fundPassword:
                send(.submittedFundPassword(VerificationSecret(entry)))
            }
        }

        #if os(iOS) || os(visionOS)
            /// The 2FA field also takes recovery codes (letters, digits and hyphens): an ASCII keyboard, never the
            /// number pad. The fund password is digits only.
            private static func keyboard(for kind: VerificationInputField.Kind) -> UIKeyboardType {
                switch kind {
                case .oneTimeCode: .asciiCapable
                case .fundPassword: .numberPad
                }
            }
        #endif

        private func announce(_ announcement: VerificationAnnouncement) {
            Self.post(announcement)
        }

        /// Posts `announcement` to VoiceOver (politely: after current speech, A9).
        static func post(_ announcement: VerificationAnnouncement) {
            var text = AttributedString(announcement.text)
            switch announcement.politeness {
            case .polite:
                text.accessibilitySpeechAnnouncementPriority = .low
            }
            AccessibilityNotification.Announcement(text).post()
        }
    }

    extension View {
        /// Presents the verification page of `model` while a verification runs, under the app's own icon
        /// unless `appIcon` says otherwise: a full-screen cover with a clear background (the page draws its own dimmed backdrop) on iOS and visionOS, a sheet on macOS.
        /// A dismissal by the system (a sheet swiped down) is the page's "取消", so `verify` returns; the
        /// page's closing announcement ("验证成功", "已取消验证" …) is posted to VoiceOver once it is gone.
        public func verificationPage(
            _ model: VerificationSheetModel, appIcon: Image? = VerificationSheet.bundledAppIcon
        ) -> some View {
            modifier(VerificationPagePresentation(model: model, appIcon: appIcon))
        }
    }

    private struct VerificationPagePresentation: ViewModifier {
        let model: VerificationSheetModel
        let appIcon: Image?

        func body(content: Content) -> some View {
            let presented = Binding(
                get: { model.isPresented },
                set: { if !$0 { model.dismissedBySystem() } })
            #if os(iOS) || os(visionOS)
                content
                    .fullScreenCover(isPresented: presented) { page.presentationBackground(.clear) }
                    .onChange(of: model.closingAnnouncement) { _, announcement in
                        if let announcement { VerificationSheet.post(announcement) }
                    }
            #else
                content
                    .sheet(isPresented: presented) { page }
                    .onChange(of: model.closingAnnouncement) { _, announcement in
                        if let announcement { VerificationSheet.post(announcement) }
                    }
            #endif
        }

        @ViewBuilder
        private var page: some View {
            if let screen = model.screen {
                VerificationSheet(screen: screen, appIcon: appIcon) { model.send($0) }
            }
        }
    }

    /// Return / Escape (and ⌘.) for the page's default and cancel buttons.
    private struct Shortcut: ViewModifier {
        let shortcut: VerificationButton.KeyboardShortcut?

        @ViewBuilder
        func body(content: Content) -> some View {
            switch shortcut {
            case .defaultAction: content.keyboardShortcut(.defaultAction)
            case .cancelAction: content.keyboardShortcut(.cancelAction)
            case nil: content
            }
        }
    }

    extension Color {
        fileprivate init(verification color: VerificationColor) {
            self.init(
                .sRGB, red: Double(color.red) / 255, green: Double(color.green) / 255, blue: Double(color.blue) / 255,
                opacity: 1)
        }
    }
#endif
