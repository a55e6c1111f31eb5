#if canImport(Observation)
    import Observation

    /// The verification page's state for SwiftUI: pass it to ``LatchClient/verify(_:authenticator:keys:presenter:language:timeZone:)``
    /// as the presenter and present it with `.verificationPage(_:)` (a full-screen cover with a clear
    /// background that posts the closing announcement), or show `VerificationSheet` yourself while `screen`
    /// is set — then route the system's dismissal (a swipe down) to `dismissedBySystem()`.
    ///
    ///     @State private var page = VerificationSheetModel()
    ///
    ///     Button("Withdraw") {
    ///         Task {
    ///             let result = await client.verify(context, authenticator: LocalAuthenticationAuthenticator(),
    ///                                              keys: keys, presenter: page, language: .zhHans)
    ///             if case .succeeded(let proof) = result { try await backend.withdraw(proof) }
    ///         }
    ///     }
    ///     .verificationPage(page)
    @MainActor
    @Observable
    public final class VerificationSheetModel: VerificationPresenter {
        /// The page to show, or `nil` when no verification is running.
        public private(set) var screen: VerificationScreen?
        /// What was announced when the page closed ("验证成功" / "Verified.", "已取消验证" / "Verification cancelled." …).
        public private(set) var closingAnnouncement: VerificationAnnouncement?

        @ObservationIgnored private var respond: VerificationResponder?
        @ObservationIgnored private let settings: @MainActor () -> Void

        /// - Parameter openSettings: opens the app's page in Settings
        ///   (`UIApplication.openSettingsURLString` on iOS).
        public init(openSettings: @escaping @MainActor () -> Void = {}) {
            self.settings = openSettings
        }

        /// Whether the page is up.
        public var isPresented: Bool { screen != nil }

        /// What the user did on the page (`VerificationSheet`'s `send`). Ignored when no page is up.
        public func send(_ input: VerificationInput) {
            guard screen != nil else { return }
            respond?(input)
        }

        /// The system took the page down without a tap on it (a sheet swiped down): that is "取消" (A4), so
        /// `verify` returns `.cancelled` instead of waiting for ever. Ignored when no page is up (the flow
        /// closed it itself).
        public func dismissedBySystem() {
            send(.tapped(.cancel))
        }

        public func present(_ screen: VerificationScreen, respond: VerificationResponder) {
            self.respond = respond
            self.screen = screen
            closingAnnouncement = nil
        }

        public func dismiss(announcing announcement: VerificationAnnouncement) {
            screen = nil
            respond = nil
            closingAnnouncement = announcement
        }

        public func openSettings() {
            settings()
        }
    }
#endif
