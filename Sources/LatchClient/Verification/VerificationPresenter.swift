/// Shows the verification page and reports what the user does on it: `VerificationSheetModel` on
/// Apple platforms, the terminal in the `latch` CLI, a script in tests.
///
///     struct TerminalPresenter: VerificationPresenter {
///         func present(_ screen: VerificationScreen, respond: VerificationResponder) async {
///             print(screen.title, screen.message)
///             if screen.button(.cancel) != nil, userTypedCancel() { respond(.tapped(.cancel)) }
///         }
///         func dismiss(announcing announcement: VerificationAnnouncement) async { print(announcement.text) }
///         func openSettings() async {}
///     }
public protocol VerificationPresenter: Sendable {
    /// Shows `screen` (replacing the previous one) and announces `screen.announcement`. Taps and typed
    /// secrets go to `respond`, now or later, from any thread; inputs for a screen that is gone are ignored.
    func present(_ screen: VerificationScreen, respond: VerificationResponder) async

    /// Closes the page and announces `announcement`.
    func dismiss(announcing announcement: VerificationAnnouncement) async

    /// Opens the app's page in the system Settings (A6, A7).
    func openSettings() async
}

/// Where a presenter reports the user's inputs: call it like a function, `respond(.tapped(.cancel))`.
public struct VerificationResponder: Sendable {
    private let send: @Sendable (VerificationInput) -> Void

    public init(_ send: @escaping @Sendable (VerificationInput) -> Void) {
        self.send = send
    }

    public func callAsFunction(_ input: VerificationInput) {
        send(input)
    }
}
