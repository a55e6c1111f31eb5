/// The fallback button of the biometric prompt (B3), from the title an app asks for.
///
/// - `nil`: the system's own button ("Enter Password"), which asks for the device passcode;
/// - `""` (or only spaces): no button at all — `LAContext.localizedFallbackTitle = ""`;
/// - anything else: that title; tapping it ends the prompt with −3 `userFallback`, and the app runs its
///   own fallback (its password, 2FA).
///
/// Face ID and Touch ID show it differently:
/// - Touch ID: the first prompt has only Cancel; the fallback button appears after one failed match.
///   After the allowed tries the prompt ends with −1 `authenticationFailed`; five failures in a row
///   lock biometry (−8).
/// - Face ID: the first prompt has no buttons; after a failed match it shows its own "Try Face ID
///   Again" page (not customisable), and after the second failure a page like Touch ID's with the
///   fallback button. It does not report −1 the way Touch ID does; repeated failures also lock out (−8),
///   after a number the system does not document.
///
///     let button = BiometricFallbackButton(title: "")   // .hidden
///     context.localizedFallbackTitle = button.localizedFallbackTitle   // ""
public enum BiometricFallbackButton: Sendable, Hashable {
    /// The system's own fallback ("Enter Password").
    case systemDefault
    /// No fallback button.
    case hidden
    /// A button with this title.
    case custom(String)

    public init(title: String?) {
        guard let title else {
            self = .systemDefault
            return
        }
        // A title of spaces would show a blank button; hiding it is what such a title can only mean.
        self = title.allSatisfy(\.isWhitespace) ? .hidden : .custom(title)
    }

    /// The value for `LAContext.localizedFallbackTitle`: `nil` keeps the system's, `""` hides the button.
    public var localizedFallbackTitle: String? {
        switch self {
        case .systemDefault: nil
        case .hidden: ""
        case .custom(let title): title
        }
    }
}
