import LatchClient
import Synchronization

/// The verification screen on show and where its taps go, shared by the terminal presenter and the
/// simulated sensor (whose "other method" answer presses the page's button).
final class VerificationPage: Sendable {
    private let current = Mutex<(screen: VerificationScreen, respond: VerificationResponder)?>(nil)
    /// Why the CLI gave up on the page (nothing left to answer with), when it did.
    private let gaveUp = Mutex<String?>(nil)
    /// The policy's requirement line last printed (issue 30 §3).
    private let requirement = Mutex<String?>(nil)

    /// Makes `screen` the one on show; returns whether it differs from the previous one.
    func show(_ screen: VerificationScreen, respond: VerificationResponder) -> Bool {
        current.withLock { current in
            defer { current = (screen, respond) }
            return current?.screen != screen
        }
    }

    /// Whether `line` differs from the requirement printed last (and remembers it).
    func isNewRequirement(_ line: String) -> Bool {
        requirement.withLock { last in
            defer { last = line }
            return last != line
        }
    }

    /// Presses `button` when the screen on show offers it (enabled); returns whether it did.
    func tap(_ button: VerificationButton.ID) -> Bool {
        guard let (screen, respond) = current.withLock({ $0 }), screen.button(button)?.isEnabled == true else {
            return false
        }
        respond(.tapped(button))
        return true
    }

    /// Closes the page with "取消" / "Cancel" because nothing is left to answer with; `reason` says why.
    func giveUp(_ reason: String, respond: VerificationResponder) {
        gaveUp.withLock { $0 = $0 ?? reason }
        respond(.tapped(.cancel))
    }

    /// The screen on show (the last one the flow presented) and where its taps go.
    var onShow: (screen: VerificationScreen, respond: VerificationResponder)? { current.withLock { $0 } }

    /// The kind of the screen on show.
    var currentKind: VerificationScreen.Kind? { onShow?.screen.kind }

    /// Why the CLI gave up, if it did (then a cancelled flow is a failure, not the user's cancel).
    var giveUpReason: String? { gaveUp.withLock { $0 } }
}
