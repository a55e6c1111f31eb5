import LatchClient

extension VerificationScreen {
    /// Titles of the buttons, in focus order.
    var buttonTitles: [String] { buttons.map(\.title) }
    var buttonIDs: [VerificationButton.ID] { buttons.map(\.id) }
}
