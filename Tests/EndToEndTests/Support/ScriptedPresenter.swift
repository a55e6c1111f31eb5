import LatchClient

/// The verification page as a test plays it: every screen is recorded, and `answer` decides what the
/// user does on a screen that waits for them (busy screens get no answer).
actor ScriptedPresenter: VerificationPresenter {
    private let answer: @Sendable (VerificationScreen) -> VerificationInput?
    private(set) var screens: [VerificationScreen] = []
    private(set) var dismissals: [VerificationAnnouncement] = []

    init(answer: @escaping @Sendable (VerificationScreen) -> VerificationInput?) {
        self.answer = answer
    }

    func present(_ screen: VerificationScreen, respond: VerificationResponder) {
        screens.append(screen)
        guard !screen.isBusy, let input = answer(screen) else { return }
        respond(input)
    }

    func dismiss(announcing announcement: VerificationAnnouncement) {
        dismissals.append(announcement)
    }

    func openSettings() {}

    /// The screens that waited for the user, without the busy ones.
    var settledScreens: [VerificationScreen] { screens.filter { !$0.isBusy } }
}
