/// What the user did on the verification page, as the view reports it to `VerificationDriver`.
public enum VerificationInput: Sendable, Equatable {
    /// A button of the current screen (`VerificationButton.id`). `.submit` is reported as
    /// `.submittedCode` / `.submittedFundPassword` with the field's text instead.
    case tapped(VerificationButton.ID)
    /// "确认" / "Confirm" on the 2FA page, with what was typed.
    case submittedCode(VerificationSecret)
    /// "确认" / "Confirm" on the fund-password page, with what was typed.
    case submittedFundPassword(VerificationSecret)
    /// The app left the foreground (A8).
    case appDidEnterBackground
}
