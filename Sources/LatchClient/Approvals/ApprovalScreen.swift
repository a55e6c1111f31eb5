import Foundation

/// One state of the approval screen, as the flow decides it and a view (SwiftUI, the terminal) draws it.
public struct ApprovalScreen: Sendable, Equatable {
    /// What the screen is for.
    public enum Kind: Sendable, Equatable {
        /// Loading what asks.
        case loading
        /// Who asks, the numbers, deny and "this wasn't me".
        case choosing
        /// The verification page (Face ID) or the decision is on its way.
        case busy
        /// The end, with its message.
        case finished(ApprovalEnd)
    }

    /// A button a view draws.
    public enum Button: Sendable, Equatable {
        /// One of the three numbers.
        case number(String)
        case deny
        case notMe
        /// Closes the screen (the end pages, and before deciding).
        case close
    }

    public var kind: Kind
    public var title: String
    /// The question ("Is it you signing in on Chrome · macOS?"), or the end's message.
    public var message: String
    /// Who asks and where: device, IP address, time, network; or the action's amount and target.
    public var details: [String]
    /// The numbers to pick from, in the server's order (empty except while choosing).
    public var numbers: [String]
    /// "Pick the number shown on the other screen." while choosing.
    public var instruction: String?
    public var buttons: [Button]
    /// A warning tone (a wrong number, a sign-in from another network).
    public var isWarning: Bool

    public init(
        kind: Kind, title: String, message: String, details: [String] = [], numbers: [String] = [],
        instruction: String? = nil, buttons: [Button] = [], isWarning: Bool = false
    ) {
        self.kind = kind
        self.title = title
        self.message = message
        self.details = details
        self.numbers = numbers
        self.instruction = instruction
        self.buttons = buttons
        self.isWarning = isWarning
    }
}
