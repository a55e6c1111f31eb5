import Foundation

/// The live countdown of the hold page (issue 19 §2): until when the action is paused and how long is
/// left, as shown and as VoiceOver reads it. The flow builds a new one every second from its clock.
public struct VerificationCountdown: Sendable, Equatable {
    /// When the wait ends.
    public var endsAt: Date
    /// Until when, as shown: "恢复时间：2026-11-27 14:05" / "Available again: 2026-11-27 14:05".
    public var until: String
    /// The time left, as shown: "剩余 23:59:59" / "23:59:59 left".
    public var remaining: String
    /// What VoiceOver reads for the time left, in words: "剩余23小时59分钟" / "23 hours 59 minutes left".
    public var accessibilityLabel: String

    public init(endsAt: Date, until: String, remaining: String, accessibilityLabel: String) {
        self.endsAt = endsAt
        self.until = until
        self.remaining = remaining
        self.accessibilityLabel = accessibilityLabel
    }
}
