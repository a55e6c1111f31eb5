import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes the verification page's presenter: shows nothing, records the screens, and cancels the hold and fund password pages.
actor ClosingPresenter: VerificationPresenter {
    private(set) var screens: [VerificationScreen] = []
    private(set) var closing: VerificationAnnouncement?

    func present(_ screen: VerificationScreen, respond: VerificationResponder) {
        screens.append(screen)
        if screen.kind == .securityHold || screen.kind == .fundPassword { respond(.tapped(.cancel)) }
    }

    func dismiss(announcing announcement: VerificationAnnouncement) { closing = announcement }
    func openSettings() {}
}
